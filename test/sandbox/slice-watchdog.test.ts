/**
 * The slice's watchdog (src/sandbox/slice-watchdog.ts, native/slice-watchdog, docs/decisions.md
 * D373): a thread of our own in place of isolated-vm's per-call timeout. It must bound what the
 * timeout bounds (an endless loop, a regular expression that backtracks for ever), leave the
 * isolate usable for the next call, leave nothing behind from a call that ended in time, and
 * never touch an isolate that isolated-vm disposed inside an armed call (its memory limit).
 * No test asserts a tight wall-clock figure: the machine may be loaded.
 */
import ivm from 'isolated-vm';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import {
  armSlice,
  disarmSlice,
  sliceWatchdogLoaded,
  unwatch,
  watch,
  type WatchedIsolate,
} from '../../src/sandbox/slice-watchdog.js';
import { createEngine } from '../../src/index.js';

const BUILT = fileURLToPath(new URL('../../dist/native/slice_watchdog.node', import.meta.url));

const isolates: { iso: ivm.Isolate; watched: WatchedIsolate | null }[] = [];
afterAll(() => {
  for (const { iso, watched } of isolates) {
    if (watched) unwatch(watched);
    if (!iso.isDisposed) iso.dispose();
  }
});

async function watchedIsolate(memoryMB = 32) {
  const iso = new ivm.Isolate({ memoryLimit: memoryMB });
  const ctx = await iso.createContext();
  const watched = await watch(ctx);
  isolates.push({ iso, watched });
  if (!watched) throw new Error('the watchdog did not register the isolate');
  const fn = (src: string) => ctx.evalSync(src, { reference: true }) as ivm.Reference<(...a: unknown[]) => unknown>;
  return { iso, ctx, watched, fn };
}

/** A call armed for `ms`: what it returned or threw, and whether the watchdog fired. */
function armed(watched: WatchedIsolate, f: ivm.Reference<(...a: unknown[]) => unknown>, ms: number) {
  expect(armSlice(watched, ms)).toBe(true);
  try {
    const value = f.applySync(undefined, []);
    return { value, fired: disarmSlice() };
  } catch (e) {
    return { thrown: e, fired: disarmSlice() };
  }
}

describe('the slice watchdog', () => {
  it('loads wherever `npm run build` built it (CI requires the build)', () => {
    expect(existsSync(BUILT)).toBe(true);
    expect(sliceWatchdogLoaded()).toBe(true);
  });

  it('terminates an endless loop, runs no finally block, and the isolate runs the next call', async () => {
    const { iso, ctx, watched, fn } = await watchedIsolate();
    ctx.evalSync('globalThis.st = { fin: 0, n: 0 };');
    const spin = fn('(function () { try { for (;;) {} } finally { st.fin++; } })');
    const count = fn('(function () { return ++st.n; })');
    for (let i = 0; i < 5; i++) {
      const r = armed(watched, spin, 2);
      expect(r.fired).toBe(true);
      // isolated-vm throws null for a termination it did not ask for.
      expect(r.thrown).toBeNull();
      expect(armed(watched, count, 50)).toEqual({ value: i + 1, fired: false });
    }
    expect(iso.isDisposed).toBe(false);
    expect(ctx.evalSync('st.fin')).toBe(0);
  });

  it('terminates a regular expression that backtracks for ever (RX-01 inside one native call)', async () => {
    const { watched, fn } = await watchedIsolate();
    const backtracks = fn('(function () { return /^(a+)+$/.test("a".repeat(60) + "b"); })');
    const r = armed(watched, backtracks, 2);
    expect(r).toEqual({ thrown: null, fired: true });
    expect(armed(watched, fn('(function () { return 42; })'), 50)).toEqual({ value: 42, fired: false });
  });

  it('leaves nothing behind, fired or not: unguarded calls later run', async () => {
    const { watched, fn } = await watchedIsolate();
    const small = fn('(function () { let s = 0; for (let i = 0; i < 1000; i++) s += i; return s; })');
    // Deadlines of 1 ms on calls of a few µs: most end in time, and one the machine holds past its
    // deadline is terminated, or ends as the watchdog fires (disarm then cancels what is pending).
    let ended = 0;
    for (let i = 0; i < 200; i++) {
      const r = armed(watched, small, 1);
      if ('value' in r) {
        expect(r.value).toBe(499500);
        ended++;
      } else expect(r).toEqual({ thrown: null, fired: true });
    }
    expect(ended).toBeGreaterThan(100);
    // Past every deadline armed above, with nothing armed.
    await new Promise((r) => setTimeout(r, 20));
    for (let i = 0; i < 20; i++) expect(small.applySync(undefined, [])).toBe(499500);
  });

  it('survives isolates disposed at their memory limit inside armed calls', async () => {
    // Each call allocates past its isolate's limit while armed for 1 ms, so the watchdog may fire
    // as isolated-vm tears the isolate down; the sentinel takes it out of the watchdog first.
    for (let i = 0; i < 12; i++) {
      const { iso, watched, fn } = await watchedIsolate(8);
      const grow = fn('(function () { const a = []; for (;;) a.push(new Array(1000).fill(a.length)); })');
      const r = armed(watched, grow, 1);
      expect('thrown' in r).toBe(true);
      if (iso.isDisposed) expect(String((r.thrown as Error | null)?.message)).toMatch(/memory limit|disposed/);
    }
    // The watchdog still bounds a live isolate afterwards.
    const { watched, fn } = await watchedIsolate();
    expect(armed(watched, fn('(function () { for (;;) {} })'), 2)).toEqual({ thrown: null, fired: true });
  });
});

describe('a process that used the watchdog', () => {
  it('exits when its work is done, its watchdog thread idle for good (no wait on it at exit)', () => {
    const module = new URL('../../src/sandbox/slice-watchdog.ts', import.meta.url).href;
    const code = `
      import ivm from 'isolated-vm';
      const m = await import(${JSON.stringify(module)});
      const iso = new ivm.Isolate({ memoryLimit: 32 });
      const ctx = await iso.createContext();
      const w = await m.watch(ctx);
      const f = ctx.evalSync('(function () { return 1; })', { reference: true });
      m.armSlice(w, 2);
      f.applySync(undefined, []);
      m.disarmSlice();
      // Past the watchdog's second of idling: its thread then waits without a deadline.
      await new Promise((r) => setTimeout(r, 1300));
      console.log('done');
    `;
    const r = spawnSync(
      process.execPath,
      ['--no-node-snapshot', '--import', 'tsx', '--input-type=module', '-e', code],
      {
        cwd: fileURLToPath(new URL('../..', import.meta.url)),
        encoding: 'utf8',
        timeout: 20_000,
      },
    );
    expect(r.stdout.trim()).toBe('done');
    expect(r.signal).toBeNull();
    expect(r.status).toBe(0);
  }, 30_000);
});

describe('the slice in process, bounded by the watchdog', () => {
  it('cuts a backtracking regular expression in its slice; the render ends at its CPU limit and the tenant renders on', async () => {
    const engine = createEngine({ workers: 0, timezone: 'UTC', limits: { cpuMs: 200 } });
    try {
      await expect(
        engine.render('{$x|regex_replace:"/^(a+)+$/":"b"}', {
          name: 'rx.tpl',
          identity: { tenant: 'rx' },
          vars: { x: `${'a'.repeat(60)}b` },
        }),
      ).rejects.toMatchObject({ code: 'E_CPU_TIMEOUT' });
      const next = await engine.render('{$x|upper}', { name: 'ok.tpl', identity: { tenant: 'rx' }, vars: { x: 'ok' } });
      expect(next.output).toBe('OK');
    } finally {
      await engine.close();
    }
  });
});

describe("a sandbox worker's synchronous renders, bounded by the watchdog", () => {
  /** The names of a process's threads (Linux). */
  const threadNames = (pid: number) =>
    readdirSync(`/proc/${pid}/task`).map((t) => readFileSync(`/proc/${pid}/task/${t}/comm`, 'utf8').trim());

  it('cuts a backtracking regular expression in a host-free render the worker runs whole; the tenant renders on', async () => {
    const engine = createEngine({ workers: 1, timezone: 'UTC', limits: { cpuMs: 200 } });
    const rx = (x: string) =>
      engine.render('{$x|regex_replace:"/^(a+)+$/":"b"}', { name: 'rx.tpl', identity: { tenant: 'rx' }, vars: { x } });
    try {
      // The first render defines the template (async); the worker renders the next ones synchronously (D117).
      expect((await rx('aab')).output).toBe('aab');
      expect((await rx('aa')).output).toBe('b');
      const [pid] = engine.pids();
      // Its thread starts at the first armed call: the worker's synchronous render armed it.
      expect(threadNames(pid!)).toContain('slice-watchdog');
      await expect(rx(`${'a'.repeat(60)}b`)).rejects.toMatchObject({ code: 'E_CPU_TIMEOUT' });
      expect((await rx('aa')).output).toBe('b');
    } finally {
      await engine.close();
    }
  });
});
