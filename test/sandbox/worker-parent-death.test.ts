/**
 * A sandbox worker never outlives the process that started it, even when that process dies by
 * SIGKILL and runs no handler: the worker reads its frames from a socket pair whose other end only
 * the parent holds, and exits when that end closes (src/sandbox/worker-main.ts, `shutDown`).
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ROOT, requireBuild } from '../support/bin.js';
import { alive, descendants, eventually } from '../support/serve-process.js';

describe('sandbox workers and their parent', () => {
  it('exit when the embedding process is killed by SIGKILL', async () => {
    requireBuild();
    const script = `
      const { createEngine } = await import(${JSON.stringify(`${ROOT}dist/src/index.js`)});
      const engine = createEngine({ workers: 2 });
      await engine.render('{$x}', { name: 'a.tpl', vars: { x: 1 } });
      process.stdout.write('rendered\\n');
      setInterval(() => {}, 1000);`;
    const embedder = spawn(process.execPath, ['--no-node-snapshot', '--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    embedder.stdout.on('data', (d) => (out += d));
    expect(await eventually(() => out.includes('rendered'), 60_000)).toBe(true);
    const workers = descendants(embedder.pid!);
    expect(workers.length).toBeGreaterThanOrEqual(1);
    const exited = new Promise((r) => embedder.once('exit', r));
    embedder.kill('SIGKILL');
    await exited;
    expect(
      await eventually(() => workers.every((p) => !alive(p)), 10_000),
      `still alive: ${workers.filter(alive).join(' ')}`,
    ).toBe(true);
  }, 90_000);
});
