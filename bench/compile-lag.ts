/**
 * A fresh 1 MB template against a bystander on the same engine (security HH-06): one tenant
 * renders a new 1 MB template while another renders a small cached one every 10 ms. Reports the
 * embedding event loop's delay (perf_hooks monitorEventLoopDelay) while the big one is handled,
 * the bystander's render times, and how the big render ended. One sandbox worker, so both
 * tenants share it (the co-located case).
 *
 *   npm exec -- node --no-node-snapshot --import tsx bench/compile-lag.ts [KIND...]
 *
 * KIND: mix (HTML with tags, ~3.4 characters of code per template character), dense (sections,
 * ~12), both by default. Runs in about 10 s; numbers in docs/sandbox.md.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createEngine } from '../src/index.js';

const MB = 1024 * 1024;
const fill = (unit: string) => unit.repeat(Math.floor(MB / unit.length));
const KINDS: Record<string, string> = {
  mix: fill('<li>{$item.name|escape} {if $x > 2}big{else}small{/if}</li>\n'),
  dense: fill('{section name=i loop=$l}{$l[i]}{/section}'),
};

const pct = (xs: number[], p: number) => xs[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))] ?? NaN;
const ms = (n: number) => n.toFixed(1);

for (const kind of process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(KINDS)) {
  const e = createEngine({ workers: 1, limits: { cpuMs: 20_000, wallMs: 30_000 } });
  try {
    const small = 'hello {$x}';
    const bystander = () => e.render(small, { vars: { x: 1 }, identity: { tenant: 'bystander' } });
    for (let i = 0; i < 20; i++) await bystander();
    const delay = monitorEventLoopDelay({ resolution: 5 });
    delay.enable();
    await new Promise((r) => setTimeout(r, 100));
    const t0 = performance.now();
    let outcome: string | null = null;
    const big = e.render(KINDS[kind], {
      name: `${kind}.tpl`,
      vars: { l: [], item: { name: 'n' }, x: 3 },
      identity: { tenant: 'attacker' },
    });
    const callMs = performance.now() - t0;
    big.then(
      (r) => (outcome = `rendered ${r.output.length} chars in ${ms(performance.now() - t0)} ms`),
      (err: { code?: string; message?: string }) =>
        (outcome = `${err.code}: ${String(err.message).slice(0, 90)} after ${ms(performance.now() - t0)} ms`),
    );
    const times: number[] = [];
    while (outcome === null) {
      const s = performance.now();
      await bystander();
      times.push(performance.now() - s);
      await new Promise((r) => setTimeout(r, 10));
    }
    delay.disable();
    times.sort((a, b) => a - b);
    console.log(`${kind}: ${outcome}`);
    console.log(`  render() returned after ${ms(callMs)} ms (its synchronous part)`);
    console.log(
      `  event loop delay: p50 ${ms(delay.percentile(50) / 1e6)} p99 ${ms(delay.percentile(99) / 1e6)} max ${ms(delay.max / 1e6)} ms`,
    );
    console.log(
      `  bystander: ${times.length} renders, p50 ${ms(pct(times, 50))} p99 ${ms(pct(times, 99))} max ${ms(times.at(-1) ?? NaN)} ms`,
    );
  } finally {
    await e.close();
  }
}
