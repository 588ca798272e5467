/**
 * A bare isolate with the built runtime bundle (dist/runtime.bundle.js) booted, for tests that call
 * the runtime's `render` directly, without IsolateHost around it. Disposed after the file's tests.
 */
import { readFileSync } from 'node:fs';
import ivm from 'isolated-vm';
import { afterAll } from 'vitest';

export interface RuntimeIsolate {
  isolate: ivm.Isolate;
  context: ivm.Context;
  /** The runtime's `smartcage.render`. */
  render: ivm.Reference<(...args: unknown[]) => unknown>;
}

export function runtimeIsolate(): RuntimeIsolate {
  const bundle = readFileSync(new URL('../../dist/runtime.bundle.js', import.meta.url), 'utf8');
  const isolate = new ivm.Isolate({ memoryLimit: 64 });
  const context = isolate.createContextSync();
  isolate.compileScriptSync(bundle).runSync(context);
  context.evalSync('smartcage.bootstrap();');
  afterAll(() => isolate.dispose());
  const render = context.evalSync('smartcage.render', { reference: true }) as RuntimeIsolate['render'];
  return { isolate, context, render };
}
