/**
 * `engine.close()` (src/engine.ts): a render still running when it is called fails E_ENGINE_CLOSED,
 * not with what the stop looked like from inside the sandbox (a disposed isolate reads as a memory
 * limit, a killed worker as a crash); a render asked for afterwards fails at once and makes no
 * isolate or worker. With isolates in this process and in a worker. Its promise resolves once
 * the disposed isolates' work has ended, so a process may exit right after it (D351).
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createEngine, type TemplateError } from '../../src/index.js';

/** The error code a render ended with, or its output. */
const outcome = (p: Promise<{ output: string }>) =>
  p.then(
    (r) => `output ${r.output}`,
    (e: TemplateError) => e.code,
  );

describe.each([0, 1])('engine.close() with workers: %i', (workers) => {
  it('a render that loops or sleeps when the engine closes fails E_ENGINE_CLOSED; one asked for after, at once', async () => {
    const engine = createEngine({ workers });
    try {
      expect((await engine.render('{$x}', { vars: { x: 'warm' } })).output).toBe('warm');
      const pids = engine.pids();
      const loop =
        '{foreach from=$a item=i}{foreach from=$a item=j}{foreach from=$a item=k}{/foreach}{/foreach}{/foreach}x';
      const a = Array.from({ length: 1000 }, (_, i) => i);
      const running = [
        outcome(engine.render(loop, { vars: { a } })),
        outcome(engine.render('{sleep ms=1000}x', { identity: { tenant: 'other' } })),
      ];
      await new Promise((r) => setTimeout(r, 300));
      await engine.close();
      expect(await Promise.all(running)).toEqual(['E_ENGINE_CLOSED', 'E_ENGINE_CLOSED']);
      const after = engine.render('after', { identity: { tenant: 'third' } });
      await expect(after).rejects.toMatchObject({ code: 'E_ENGINE_CLOSED', message: 'the engine is closed', line: 0 });
      // Nothing was made for it: no isolate in this process, no worker started again (the old
      // ones may still be on their way out).
      expect(engine.stats().isolates).toBe(0);
      expect(engine.pids().filter((pid) => !pids.includes(pid))).toEqual([]);
    } finally {
      await engine.close();
    }
  }, 30_000);
});

/** How a child process ended: its exit code, or the signal that ended it. */
function runChild(script: string): Promise<string> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--no-node-snapshot', '--import', 'tsx', '-e', script], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('exit', (code, signal) =>
      resolve(signal ?? (code === 0 ? 'exit 0' : `exit ${code}: ${stderr.slice(0, 300)}`)),
    );
  });
}

describe('a process that exits right after an awaited engine.close()', () => {
  it('ends with its own exit code, in every run', async () => {
    const engine = fileURLToPath(new URL('../../src/engine.ts', import.meta.url));
    // Four new tenants: the last render's isolate is a spare taken while the next spare warms, so
    // the close finds an isolate at work. Before D351 (close() returned nothing to await), a
    // process.exit at once ended about half such runs with SIGSEGV in isolated-vm's threads.
    const script = `import(${JSON.stringify(engine)}).then(async (m) => {
      const e = m.createEngine({ workers: 0 });
      for (let t = 0; t < 4; t++) await e.render('{$x|escape}', { vars: { x: t }, identity: { tenant: 't' + t } });
      await e.close();
      process.exit(0);
    })`;
    const ends: string[] = [];
    for (let round = 0; round < 6; round++) ends.push(...(await Promise.all([runChild(script), runChild(script)])));
    expect(ends).toEqual(Array.from({ length: 12 }, () => 'exit 0'));
  }, 120_000);
});
