/**
 * bin/smartcage.js, the command a user runs: it restarts itself with --no-node-snapshot (and, on
 * a system Node older than 24, with the Node 24 the project installs), so the real work runs in a
 * child. Signals sent to the wrapper must reach that child: `kill PID` of `smartcage serve` used
 * to leave the server running. Runs the built command (dist/), as a user would after `npm run build`;
 * and the README's library snippet, which imports the built package by its name.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, ROOT, requireBuild } from '../support/bin.js';
import { startServe } from '../support/serve-process.js';

beforeAll(requireBuild);

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function childrenOf(pid: number): number[] {
  const r = spawnSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' });
  return r.stdout.split('\n').filter(Boolean).map(Number);
}

describe('bin/smartcage.js', () => {
  it('runs on Node 24 whatever Node started it', () => {
    const r = spawnSync(process.execPath, [BIN, '--help'], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('Commands:');
    expect(Number(process.versions.node.split('.')[0])).toBeGreaterThanOrEqual(24);
  });

  it('kill PID of `smartcage serve` stops the server too, and the wrapper exits with it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'smartcage-serve-'));
    mkdirSync(join(dir, 'files'));
    const s = await startServe(['--port', '0'], { cwd: dir, waitMs: 10_000 });
    const wrapper = s.child;
    const [server] = childrenOf(wrapper.pid!);
    expect(server).toBeGreaterThan(0);
    process.kill(wrapper.pid!, 'SIGTERM');
    const { code, signal } = await s.exited;
    // serve stops gracefully on SIGTERM (exit 0); a child killed outright shows as the signal.
    expect([0, 'SIGTERM']).toContain(signal ?? code);
    for (let i = 0; i < 50 && alive(server!); i++) await new Promise((r) => setTimeout(r, 100));
    expect(alive(server!)).toBe(false);
  }, 30_000);
});

describe("the README's library snippet (examples/library.mjs)", () => {
  it('renders, prints the output and the compile summary', () => {
    const r = spawnSync(process.execPath, [join(ROOT, 'examples/library.mjs')], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^<li>Hello<\/li>\n\d+ characters of JavaScript, 1 lines mapped, 0 diagnostics\n$/);
    expect(r.status).toBe(0);
  });
});
