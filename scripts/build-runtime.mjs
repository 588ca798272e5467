#!/usr/bin/env node
// Bundles src/runtime/isolate-entry.ts (the runtime and every pure plugin) into one script
// that the sandbox evaluates in each isolate: dist/runtime.bundle.js.
import { build } from 'esbuild';
import { existsSync, mkdirSync } from 'node:fs';

const entry = 'src/runtime/isolate-entry.ts';
if (!existsSync(entry)) {
  console.log(`build-runtime: ${entry} not there yet, skipped`);
  process.exit(0);
}
mkdirSync('dist', { recursive: true });
await build({
  entryPoints: [entry],
  bundle: true,
  format: 'iife',
  platform: 'neutral',
  target: 'es2022',
  outfile: 'dist/runtime.bundle.js',
  legalComments: 'none',
  logLevel: 'warning',
});
