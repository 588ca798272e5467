/**
 * `engine.close()` (src/engine.ts): a render still running when it is called fails E_ENGINE_CLOSED,
 * not with what the stop looked like from inside the sandbox (a disposed isolate reads as a memory
 * limit, a killed worker as a crash); a render asked for afterwards fails at once and makes no
 * isolate or worker. With isolates in this process and in a worker.
 */
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
      engine.close();
      expect(await Promise.all(running)).toEqual(['E_ENGINE_CLOSED', 'E_ENGINE_CLOSED']);
      const after = engine.render('after', { identity: { tenant: 'third' } });
      await expect(after).rejects.toMatchObject({ code: 'E_ENGINE_CLOSED', message: 'the engine is closed', line: 0 });
      // Nothing was made for it: no isolate in this process, no worker started again (the old
      // ones may still be on their way out).
      expect(engine.stats().isolates).toBe(0);
      expect(engine.pids().filter((pid) => !pids.includes(pid))).toEqual([]);
    } finally {
      engine.close();
    }
  }, 30_000);
});
