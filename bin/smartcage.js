#!/usr/bin/env node
// isolated-vm needs Node started with --no-node-snapshot: re-run ourselves with it.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

if (!process.execArgv.includes('--no-node-snapshot')) {
  const r = spawnSync(process.execPath, ['--no-node-snapshot', fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: 'inherit' });
  process.exit(r.status ?? 1);
}
const { main } = await import('../dist/src/cli/main.js');
process.exitCode = await main(process.argv.slice(2));
