/**
 * The bounded synchronous render of the embedding process (src/sandbox/sync-slice.ts,
 * docs/decisions.md D140): what isolated-vm does after a synchronous call's timeout, a render
 * that fits its slice, one that does not (cut, run again asynchronously with the same result),
 * what is never sliced, and that an endless template holds the event loop for a bounded time.
 * No test asserts a tight wall-clock figure: the machine may be loaded.
 */
import ivm from 'isolated-vm';
import { afterAll, describe, expect, it } from 'vitest';
import { IsolateHost } from '../../src/sandbox/isolate-host.js';
import { renderRequest } from '../../src/sandbox/request.js';
import { DEFAULT_LIMITS, type SandboxLimits } from '../../src/sandbox/limits.js';
import { compile } from '../../src/compiler/index.js';
import { createEngine } from '../../src/index.js';
import type { CompiledTemplate } from '../../src/protocol/render.js';

const hosts: IsolateHost[] = [];
afterAll(() => hosts.forEach((h) => h.retire()));
const newHost = () => {
  const h = new IsolateHost(128);
  hosts.push(h);
  return h;
};

const template = (id: string, source: string): CompiledTemplate => {
  const r = compile(source, { name: id, id });
  return { id, code: r.code, filename: `${id.replace(/\W/g, '_')}.js`, hostFree: r.manifest.host.length === 0 };
};
const request = (name: string, vars: Record<string, unknown>) =>
  renderRequest({
    templateName: name,
    now: 1700000000,
    site: { timezone: 'UTC', lang: 'en', rootUrl: 'http://localhost' },
    vars,
    seed: Array.from({ length: 16 }, () => 7),
  });
const limits = (syncSliceMs: number, more: Partial<SandboxLimits> = {}): SandboxLimits => ({
  ...DEFAULT_LIMITS,
  syncSliceMs,
  ...more,
});

/** Several ms of template work on any machine: 300,000 iterations that print nothing. */
const SLOW =
  '{section name=i loop=$n}{section name=j loop=1000}{/section}{/section}{$n} done {math equation="x*2" x=$n}';

describe("isolated-vm's synchronous call after its timeout", () => {
  it('throws "Script execution timed out.", leaves the isolate usable, and runs no finally block', () => {
    const iso = new ivm.Isolate({ memoryLimit: 32 });
    try {
      const ctx = iso.createContextSync();
      ctx.evalSync(
        'globalThis.st = { fin: 0, n: 0 }; globalThis.spin = () => { try { for (;;) {} } finally { st.fin++; } }; globalThis.count = () => ++st.n;',
      );
      const spin = ctx.global.getSync('spin', { reference: true }) as ivm.Reference<() => void>;
      const count = ctx.global.getSync('count', { reference: true }) as ivm.Reference<() => number>;
      for (let i = 0; i < 5; i++)
        expect(() => spin.applySync(undefined, [], { timeout: 2 })).toThrow(/^Script execution timed out\.$/);
      expect(iso.isDisposed).toBe(false);
      // The context and its state are as the cut left them: the finally blocks never ran.
      expect(ctx.evalSync('st.fin')).toBe(0);
      expect(count.applySync(undefined, [], { timeout: 50 })).toBe(1);
    } finally {
      iso.dispose();
    }
  });
});

describe('the synchronous slice of IsolateHost', () => {
  it('a host-free template, once defined, renders in the slice', async () => {
    const host = newHost();
    const t = template('fits.tpl', '{$x|upper}!');
    // The first render defines the template and goes asynchronously.
    expect((await host.render(t, request(t.id, { x: 'a' }), limits(20), null)).output).toBe('A!');
    for (let i = 0; i < 5; i++)
      expect((await host.render(t, request(t.id, { x: `v${i}` }), limits(20), null)).output).toBe(`V${i}!`);
    expect(host.slices.done).toBeGreaterThanOrEqual(1);
  });

  it('a render that outlasts its slice is cut and run again asynchronously, with the same output', async () => {
    const host = newHost();
    const t = template('slow.tpl', SLOW);
    expect((await host.render(t, request(t.id, { n: 1 }), limits(1), null)).output).toBe('1 done 2');
    const r = await host.render(t, request(t.id, { n: 300 }), limits(1), null);
    expect(r.error).toBeUndefined();
    expect(r.output).toBe('300 done 600');
    expect(host.slices.cut).toBe(1);
    // The template waits out its cut: its next renders go asynchronously.
    expect((await host.render(t, request(t.id, { n: 300 }), limits(1), null)).output).toBe('300 done 600');
    expect(host.slices.cut).toBe(1);
    // The cut left no render in progress behind: a new template defines and renders.
    const next = template('after-cut.tpl', '{$x|lower}');
    expect((await host.render(next, request(next.id, { x: 'OK' }), limits(1), null)).output).toBe('ok');
  });

  it('an output too long to copy out in the slice is rendered again asynchronously', async () => {
    const host = newHost();
    const t = template('long.tpl', '{$x|str_pad:$n:"ab"}');
    await host.render(t, request(t.id, { x: 'a', n: 1 }), limits(20), null);
    const r = await host.render(t, request(t.id, { x: 'a', n: 1_200_000 }), limits(20), null);
    expect(r.output?.length).toBe(1_200_000);
    expect(host.slices.cut).toBe(1);
  });

  it('never slices a template that may call the host, or with syncSliceMs 0', async () => {
    const host = newHost();
    const t = { ...template('maybe-host.tpl', '{$x}'), hostFree: undefined };
    const off = template('off.tpl', '{$x}');
    for (let i = 0; i < 3; i++) {
      expect((await host.render(t, request(t.id, { x: i }), limits(20), null)).output).toBe(String(i));
      expect((await host.render(off, request(off.id, { x: i }), limits(0), null)).output).toBe(String(i));
    }
    expect(host.slices).toEqual({ done: 0, cut: 0 });
  });

  it('renders awaited one after another give the event loop a turn once a slice of time has passed', async () => {
    const host = newHost();
    const t = template('loop.tpl', '{section name=i loop=$n}{$smarty.section.i.index}{/section}');
    await host.render(t, request(t.id, { n: 1 }), limits(2), null);
    // Each render ends in its slice and resolves in a microtask: without the turn's budget the
    // timer below waited for the whole loop (HH-SLICE's lag of a second and more).
    let rendered = 0;
    let atTimer = -1;
    const timer = new Promise<void>((resolve) =>
      setTimeout(() => {
        atTimer = rendered;
        resolve();
      }, 0),
    );
    for (; rendered < 400; rendered++)
      expect((await host.render(t, request(t.id, { n: 200 }), limits(2), null)).error).toBeUndefined();
    await timer;
    expect(host.slices.done).toBeGreaterThan(0);
    expect(atTimer).toBeGreaterThanOrEqual(0);
    expect(atTimer).toBeLessThan(400);
  });

  it('a thrown value whose message getter never returns still ends the slice (the runtime answers, it does not throw)', async () => {
    const host = newHost();
    const code = `smartcage.define("getter.tpl", (rt) => function t0(s, $) {
      const bad = {}; Object.defineProperty(bad, 'message', { get() { for (;;) {} } });
      if (s.go) throw new Proxy({}, { getPrototypeOf() { throw bad; } });
      return 'calm';
    });`;
    const t: CompiledTemplate = { id: 'getter.tpl', code, filename: 'getter.js', hostFree: true };
    expect(
      (await host.render(t, request(t.id, { go: false }), limits(20, { cpuMs: 500, wallMs: 2000 }), null)).output,
    ).toBe('calm');
    const r = await host.render(t, request(t.id, { go: true }), limits(20, { cpuMs: 500, wallMs: 2000 }), null);
    expect(r.error?.code).toBe('E_RUNTIME');
    expect(host.slices.done).toBe(1);
  });
});

describe('an endless template in the embedding process', () => {
  it('holds the event loop for a bounded time, far less than its CPU limit, and ends E_CPU_TIMEOUT', async () => {
    const e = createEngine({ workers: 0, timeoutMs: 3000, limits: { syncSliceMs: 2 } });
    try {
      const src = '{if $go}{section name=i loop=2000000000}{section name=j loop=1000}{/section}{/section}{/if}calm';
      expect((await e.render(src, { vars: { go: false } })).output).toBe('calm');
      let ticks = 0;
      const tick = setInterval(() => ticks++, 5);
      const err = await e.render(src, { vars: { go: true } }).then(
        () => null,
        (x: { code?: string }) => x.code,
      );
      clearInterval(tick);
      expect(err).toBe('E_CPU_TIMEOUT');
      // Unbounded, the synchronous call would have held the loop for the whole 3,000 ms CPU limit,
      // and a timer held back fires once when the loop comes back: one or two ticks. Sliced, the
      // loop turns between slices and the 5 ms timer fires hundreds of times (generous here: the
      // machine may be loaded).
      expect(ticks).toBeGreaterThan(20);
    } finally {
      await e.close();
    }
  });
});

describe('the render cuts itself at the end of its slice (D187)', () => {
  /** The live context's render function, as IsolateHost's slice calls it. */
  const liveRender = async (host: IsolateHost) =>
    (
      (await (
        host as unknown as { contextFor(l: SandboxLimits): Promise<{ render: ivm.Reference<unknown> }> }
      ).contextFor(limits(2))) as { render: ivm.Reference<(...args: unknown[]) => unknown> }
    ).render;

  it('answers overSlice without isolated-vm timing it out, its finally blocks run, and the context renders on', async () => {
    const host = newHost();
    const t = template('cut-self.tpl', '{section name=i loop=$n}{section name=j loop=1000}{/section}{/section}{$n}');
    expect((await host.render(t, request(t.id, { n: 0 }), limits(2), null)).output).toBe('0');
    const render = await liveRender(host);
    const endless = new ivm.ExternalCopy(request(t.id, { n: 2_000_000_000 }));
    // isolated-vm's own timeout far away: only the render's deadline can end the call.
    const answer = render.applySync(undefined, [t.id, endless.copyInto(), 1 << 20, false, 2], {
      timeout: 60_000,
      result: { copy: true },
    });
    expect(answer).toEqual({ overSlice: true });
    // Without `afterCut`: the cut render restored its globals itself, so this one starts clean.
    const small = new ivm.ExternalCopy(request(t.id, { n: 3 }));
    // A short output with nothing else to say is answered as the string alone (D276).
    expect(
      render.applySync(undefined, [t.id, small.copyInto(), 1 << 20, false, 0], {
        timeout: 5000,
        result: { copy: true },
      }),
    ).toBe('3');
  });
});

describe('a render whose host calls are answered at once takes the slice (D268)', () => {
  /** `{api_method}` compiled as any template calling it: the host side below is a stub. */
  const hostTemplate = (id: string) => {
    const t = template(
      id,
      '{api_method var=r model="Topics" method="list" method_params=$m}{$r.n}{section name=i loop=$spin}{section name=j loop=1000}{/section}{/section}',
    );
    expect(t.hostFree).toBe(false);
    return t;
  };
  const answer = (n: number) => JSON.stringify({ ok: true, assign: [['r', { a: [['n', n]] }]] });
  /** A stub of the bridge's calls answered at once; `yieldAt`: the calls (1-based) answered E_SLICE_YIELD. */
  const stubNow = (yieldAt: number[] = []) => {
    const seen = { calls: 0, restarts: 0 };
    return {
      seen,
      now: {
        call: (kind: string, req: string) => {
          expect(kind).toBe('tag');
          expect(JSON.parse(req)).toMatchObject({ name: 'api_method' });
          return yieldAt.includes(++seen.calls)
            ? JSON.stringify({ ok: false, error: { code: 'E_SLICE_YIELD', message: 'later' } })
            : answer(seen.calls);
        },
        restart: () => seen.restarts++,
      },
    };
  };
  const asyncHost = (log: string[]) => async (_kind: string, _req: string) => {
    log.push('async');
    return answer(100);
  };

  it('ends in the slice: the host answers through the call made at once, not the async handler', async () => {
    const host = newHost();
    const t = hostTemplate('now.tpl');
    const log: string[] = [];
    const { seen, now } = stubNow();
    // The first render defines the template and goes asynchronously.
    expect((await host.render(t, request(t.id, { spin: 0 }), limits(20), asyncHost(log), now)).output).toBe('100');
    for (let i = 0; i < 4; i++)
      expect((await host.render(t, request(t.id, { spin: 0 }), limits(20), asyncHost(log), now)).output).toBe(
        String(i + 1),
      );
    expect(host.slices).toEqual({ done: 4, cut: 0 });
    expect(seen.calls).toBe(4);
    expect(log).toEqual(['async']);
  });

  it('without calls answered at once it goes asynchronously, as before', async () => {
    const host = newHost();
    const t = hostTemplate('later.tpl');
    const log: string[] = [];
    for (let i = 0; i < 3; i++)
      expect((await host.render(t, request(t.id, { spin: 0 }), limits(20), asyncHost(log), null)).output).toBe('100');
    expect(host.slices).toEqual({ done: 0, cut: 0 });
    expect(log).toHaveLength(3);
  });

  it('a call answered E_SLICE_YIELD cuts the render: it runs again asynchronously from the start, its counts forgotten', async () => {
    const host = newHost();
    const t = hostTemplate('yield.tpl');
    const log: string[] = [];
    const { seen, now } = stubNow([1]);
    await host.render(t, request(t.id, { spin: 0 }), limits(20), asyncHost(log), null);
    const r = await host.render(t, request(t.id, { spin: 0 }), limits(20), asyncHost(log), now);
    expect(r.error).toBeUndefined();
    expect(r.output).toBe('100');
    expect(host.slices).toEqual({ done: 0, cut: 1 });
    expect(seen).toEqual({ calls: 1, restarts: 1 });
    expect(log).toEqual(['async', 'async']);
  });

  it('a render cut after its host call (its slice ran out) runs again asynchronously with the same answer', async () => {
    const host = newHost();
    const t = hostTemplate('cut-after-call.tpl');
    const log: string[] = [];
    const { seen, now } = stubNow();
    await host.render(t, request(t.id, { spin: 0 }), limits(1), asyncHost(log), null);
    const r = await host.render(t, request(t.id, { spin: 300 }), limits(1), asyncHost(log), now);
    expect(r.error).toBeUndefined();
    expect(r.output).toBe('100');
    expect(host.slices.cut).toBe(1);
    expect(seen).toEqual({ calls: 1, restarts: 1 });
  });

  it('the host refuses a call made at once that is not of a slice it started, whatever the isolate is told', async () => {
    const host = newHost();
    const t = hostTemplate('untrusted.tpl');
    await host.render(t, request(t.id, { spin: 0 }), limits(20), asyncHost([]), null);
    // The live context's render, told to call the host at once, though the host opened no slice.
    const { render } = (await (
      host as unknown as { contextFor(l: SandboxLimits): Promise<{ render: ivm.Reference<unknown> }> }
    ).contextFor(limits(20))) as { render: ivm.Reference<(...args: unknown[]) => { error?: { code: string } }> };
    const args = (copy: ivm.ExternalCopy) => [t.id, copy.copyInto(), 1 << 20, false, 2000, true];
    const sync = render.applySync(undefined, args(new ivm.ExternalCopy(request(t.id, { spin: 0 }))), {
      timeout: 2000,
      result: { copy: true },
    });
    expect(sync.error?.code).toBe('E_BRIDGE_CLOSED');
    // And from the isolate's own thread (the async call), where applySync reaches the host as well.
    const later = await render.apply(undefined, args(new ivm.ExternalCopy(request(t.id, { spin: 0 }))), {
      timeout: 2000,
      result: { copy: true },
    });
    expect(later.error?.code).toBe('E_BRIDGE_CLOSED');
  });
});
