/** One engine per test file, rendering through the real path: compile to text, run in isolated-vm. */
import { afterAll, expect } from 'vitest';
import { createEngine, TemplateError, type Engine, type EngineOptions } from '../../src/index.js';
import { testHosts } from './test-host.js';

export const FIXED_NOW = 1700000000; // 2023-11-15 07:13:20 Asia/Tokyo
export const FIXED_SEED = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16];

export function testEngine(opts: EngineOptions = {}): Engine {
  // The real path: templates run in a sandbox worker process.
  const engine = createEngine({ now: () => FIXED_NOW, seed: FIXED_SEED, host: testHosts(), workers: 1, ...opts });
  afterAll(() => engine.close());
  return engine;
}

/** The TemplateError a render must fail with (the test fails if it renders or throws anything else). */
export async function templateError(render: Promise<unknown>): Promise<TemplateError> {
  const err = await render.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(TemplateError);
  return err as TemplateError;
}
