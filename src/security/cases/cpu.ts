/** B3. CPU: time. */
import type { HarnessContext, SecurityCase } from '../types.js';
import type { Engine } from '../../engine.js';
import type { SandboxLimits } from '../../sandbox/limits.js';
import { judge, refuses, refusesAll } from './helpers.js';
import { repeatedLimit } from './timing.js';

const BUDGET = { cpuMs: 200, wallMs: 2000 };

/** An engine whose worker has started and whose tenant isolate exists, so that timings measure the render only. */
export async function warmEngine(h: HarnessContext, limits: Partial<SandboxLimits>): Promise<Engine> {
  const engine = h.engine(limits);
  // The first render makes the tenant's isolate and context: on a loaded machine that alone can
  // outlast a 200 ms budget (a full run at load ~12 failed CPU-03 there). It is set-up, not the
  // case: tried up to three times.
  for (let attempt = 1; attempt < 3; attempt++) {
    const ok = await engine.render('{$x}', { vars: { x: 1 } }).then(
      () => true,
      () => false,
    );
    if (ok) return engine;
  }
  await engine.render('{$x}', { vars: { x: 1 } });
  return engine;
}

/**
 * The render must hit the CPU budget, every time, and name the template line; how close to the
 * budget it ends (p99 of `h.repeat` runs within budget + 50 ms) is goal G3 (report).
 */
function cpuBound(id: string, title: string, template: string): SecurityCase {
  return {
    id,
    category: 'CPU',
    title,
    async run(h) {
      const engine = await warmEngine(h, BUDGET);
      return repeatedLimit(
        h,
        'E_CPU_TIMEOUT',
        BUDGET.cpuMs,
        () => h.render(template, { engine }),
        (a) => a.code === 'E_CPU_TIMEOUT',
      );
    },
  };
}

export const CPU: SecurityCase[] = [
  cpuBound('CPU-01', 'endless loop', '{section name=i loop=1000000000}{$smarty.section.i.index}{/section}'),
  cpuBound('CPU-02', 'endless loop with an empty body', '{section name=i loop=2000000000}{/section}'),
  cpuBound('CPU-03', 'nested loops', '{section name=a loop=100000}{section name=b loop=100000}x{/section}{/section}'),
  {
    id: 'CPU-04',
    category: 'CPU',
    title: 'sleep is clamped and counted against the sleep budget and the wall clock',
    async run(h) {
      const engine = await warmEngine(h, { maxSleepMs: 1500, wallMs: 5000 });
      const a = await h.render('{section name=i loop=100000}{sleep ms=1000}{/section}', { engine });
      if (a.code !== 'E_SLEEP_BUDGET') return judge(h, a, false, 'E_SLEEP_BUDGET');
      const t0 = Date.now();
      const b = await h.render('{sleep ms=-5}{sleep ms="abc"}{sleep ms=1e308}', {
        engine: await warmEngine(h, { maxSleepMs: 3000, wallMs: 5000 }),
      });
      const took = Date.now() - t0;
      // -5 -> 100, "abc" -> 100, 1e308 -> 1000: about 1.2 s in all
      // -5, "abc" and 1e308 slept 100 + 100 + 1000 ms: at least 1.15 s shows the clamping (a lower bound, not a speed target).
      const o = judge(
        h,
        b,
        b.output === '' && took >= 1150,
        `odd values clamped to 100..1000 ms (${took} ms in all); the budget refusal after ${a.ms.toFixed(0)} ms`,
      );
      if (o.status !== 'contained') return o;
      // G4: a render that spends its time sleeping ends by its wall deadline (300 ms): the second
      // sleep would pass it and is refused at once.
      const wall = await warmEngine(h, { wallMs: 300, maxSleepMs: 10_000 });
      const g4 = await repeatedLimit(
        h,
        'E_WALL_TIMEOUT',
        300,
        () => h.render('{sleep ms=250}{sleep ms=250}', { engine: wall }),
        (x) => x.code === 'E_WALL_TIMEOUT',
      );
      return { ...g4, detail: `${o.detail}; sleeping past the deadline: ${g4.detail}` };
    },
  },
  refuses(
    'CPU-05',
    'CPU',
    'host-call amplification stops at the per-render call quota',
    '{section name=i loop=100000}{assign_globals key="k" value=1}{/section}',
    'E_BRIDGE_QUOTA',
    // The quota must be what stops it: on a loaded machine 1,000 host calls outlast the default
    // wall clock (the run at load ~20 ended E_WALL_TIMEOUT, contained but not by this rule).
    { limits: { maxHostCalls: 1000, wallMs: 30_000 } },
  ),
  {
    id: 'CPU-06',
    category: 'CPU',
    title: 'recursion through {function} and {include} stops at a fixed depth',
    async run(h) {
      const { createEngine } = await import('../../engine.js');
      const e = createEngine({
        templates: { 'self.tpl': '{include file="self.tpl"}' },
        functions: { f: '{function name="f" var=r}' },
        host: h.host,
      });
      try {
        const a = await h.render('{include file="self.tpl"}', { engine: e });
        const b = await h.render('{function name="f" var=r}', { engine: e });
        return judge(
          h,
          b,
          a.code === 'E_RECURSION_LIMIT' && b.code === 'E_RECURSION_LIMIT',
          'E_RECURSION_LIMIT for both',
        );
      } finally {
        await e.close();
      }
    },
  },
  {
    id: 'CPU-10',
    category: 'CPU',
    title: "noisy neighbour: tenant A's endless renders barely slow tenant B (G7)",
    async run(h) {
      const e = h.engine({ cpuMs: 300, wallMs: 3000 });
      const small = '{foreach from=$l item=i}{$i|upper}{/foreach}';
      const vars = { l: ['a', 'b', 'c', 'd'] };
      const runB = async (n: number) => {
        const lat: number[] = [];
        let failed = 0;
        const t0 = performance.now();
        for (let i = 0; i < n; i++) {
          const t = performance.now();
          try {
            await e.render(small, { vars, identity: { tenant: 'tenant-b' } });
          } catch {
            failed++;
          }
          lat.push(performance.now() - t);
        }
        lat.sort((x, y) => x - y);
        return { p99: lat[Math.floor(n * 0.99) - 1], perSec: n / ((performance.now() - t0) / 1000), failed };
      };
      await runB(50); // warm
      const solo = await runB(300);
      let stop = false;
      const noisy = Array.from({ length: 4 }, async () => {
        while (!stop)
          await e
            .render('{section name=i loop=2000000000}{/section}', { identity: { tenant: 'tenant-a' } })
            .catch(() => undefined);
      });
      await new Promise((r) => setTimeout(r, 200));
      const loaded = await runB(300);
      stop = true;
      await Promise.all(noisy);
      const figures = {
        p99_solo_ms: solo.p99,
        p99_loaded_ms: loaded.p99,
        p99_ratio: loaded.p99 / solo.p99,
        throughput_ratio: loaded.perSec / solo.perSec,
      };
      const goal = figures.p99_ratio <= 2 && figures.throughput_ratio >= 0.7;
      return {
        status: loaded.failed === 0 ? 'contained' : 'escaped',
        detail: `B p99 ${solo.p99.toFixed(2)} -> ${loaded.p99.toFixed(2)} ms (x${figures.p99_ratio.toFixed(2)}), throughput x${figures.throughput_ratio.toFixed(2)}; G7 ${goal ? 'met' : 'missed'}; ${loaded.failed} of B's renders failed`,
        figures,
      };
    },
  },
  refuses(
    'CPU-08',
    'CPU',
    'heavy single calls: input size caps first',
    '{assign var=s value=""|str_pad:100000000:"ab "}{$s|count_words}',
    'E_SIZE_LIMIT',
  ),
  refusesAll(
    'CPU-09',
    'CPU',
    'compile-time CPU is bounded by the template size limit',
    ['{ldelim}'.repeat(200_000), `{assign var=x value="${'a'.repeat(2_000_000)}`],
    ['E_TEMPLATE_TOO_LARGE', 'E_UNCLOSED_TAG'],
  ),
];
