/** Crash containment: renders in supervised worker processes. */
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/index.js';

describe('sandbox worker pool', () => {
  it('renders in worker processes and relays host calls back to the embedding process', async () => {
    const seen: string[] = [];
    const engine = createEngine({
      workers: 2,
      host: ({ tenant }) => ({
        secrets: {
          async get(name) {
            seen.push(`${tenant}:${name}`);
            return { value: 'v' };
          },
        },
      }),
    });
    try {
      const r = await engine.render('{secret var=s key="K"}{$s|truncate:10:""}|{$x}', {
        vars: { x: process.pid },
        identity: { tenant: 't1' },
      });
      expect(r.output).toBe(`[secret:K:|${process.pid}`);
      expect(seen).toEqual(['t1:K']);
    } finally {
      await engine.close();
    }
  });

  it('a killed worker fails only its own renders; a new worker takes its place', async () => {
    const engine = createEngine({ workers: 2, limits: { cpuMs: 5000, wallMs: 10_000 } });
    try {
      // Warm both workers (tenants are spread over them by name).
      const tenants = ['a', 'b', 'c', 'd', 'e', 'f'];
      await Promise.all(tenants.map((t) => engine.render('{$x}', { vars: { x: t }, identity: { tenant: t } })));
      const before = engine.pids();
      const slow = tenants.map((t) =>
        engine.render('{sleep ms=1000}done', { identity: { tenant: t } }).then(
          (r) => r.output,
          (e: { code: string }) => e.code,
        ),
      );
      await new Promise((r) => setTimeout(r, 300));
      process.kill(before[0], 'SIGKILL');
      const outcomes = await Promise.all(slow);
      expect(outcomes.filter((o) => o === 'E_SANDBOX_CRASHED').length).toBeGreaterThan(0);
      expect(outcomes.filter((o) => o === 'done').length).toBeGreaterThan(0);
      const after = await Promise.all(
        tenants.map((t) => engine.render('{$x}', { vars: { x: t }, identity: { tenant: t } })),
      );
      expect(after.map((r) => r.output)).toEqual(tenants);
      expect(engine.pids()[0]).not.toBe(before[0]);
    } finally {
      await engine.close();
    }
  });
});
