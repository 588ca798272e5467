/**
 * Where an in-process request's time goes (issue 35, step 2): `engine.render` with workers 0 of
 * the list page's data through variants of one loop, each adding one modifier to a bare loop that
 * prints `{$item.id}` (the floor: the variables crossing in, the call, the output crossing out).
 * Each variant's cost is its CPU per render minus the floor's, over the page's 100 items.
 *
 * With `--page NAME`, a page of bench:pages (mail, json, ja, section) part by part instead: an
 * empty template without vars (the fixed cost of a render), with the page's vars (their crossing),
 * the page without any of its modifiers, the page without each one in turn, and the page. A
 * modifier's cost is the page's CPU minus the page's without it.
 *
 *   node --no-node-snapshot --import tsx bench/costs.ts [--rounds N] [--renders N] [--slice MS] [--page NAME] [--isolate]
 *
 * Rounds alternate the variants; figures are medians of the rounds, CPU µs per render.
 *
 * Through the engine a few µs per render are within the rounds' range, so a modifier's 100 calls
 * do not resolve. `--isolate` measures the same variants inside a bench isolate instead
 * (bench/lib/harness.ts, the isolate's own CPU clock), two ways: "loop", the compiled template
 * rendered `--renders` times in one call over vars copied in once (its own code alone: lazy
 * records already converted, no output copied out), and "fresh", the runtime's `render` by
 * `applySync` with the request copied in each time, as IsolateHost calls it (its lists of rows as
 * tables, without the slice's timeout and the engine's layers). With `--page`, also "resident":
 * the runtime's `render` once per call over the loop's vars (a render's own per-render work, its
 * vars already read: fresh minus resident is the crossing and the first reads, resident minus loop
 * what each render does once, D294). For the list page it also times the hand-written page in the
 * same isolate. Medians (lower quartile) of the rounds.
 */
import ivm from 'isolated-vm';
import { createEngine } from '../src/index.js';
import { generate } from './data/generate.js';
import { pages } from './pages/pages.js';

const arg = (name: string, d: number) => {
  const i = process.argv.indexOf(name);
  return i < 0 ? d : Number(process.argv[i + 1]);
};
const rounds = arg('--rounds', 5);
const renders = arg('--renders', 300);
const slice = arg('--slice', 0);
const pageAt = process.argv.indexOf('--page');
const pageName = pageAt < 0 ? null : (process.argv[pageAt + 1] ?? '');
const inIsolate = process.argv.includes('--isolate');

interface Variant {
  name: string;
  source: string;
  vars: Record<string, unknown>;
}

const loop = (body: string) => `{foreach from=$items item=item}${body}{/foreach}`;
const LIST_VARIANTS: [string, string][] = [
  ['floor: {$item.id}', loop('{$item.id}')],
  ['+ the title (no modifier)', loop('{$item.id}{$item.title}')],
  ['+ escape (title)', loop('{$item.id}{$item.title|escape}')],
  ['+ escape (id, an int)', loop('{$item.id}{$item.id|escape}')],
  ['+ date_format', loop('{$item.id}{$item.date|date_format:"%Y-%m-%d"}')],
  ['+ @join', loop('{$item.id}{$item.tags|@join:", "}')],
  ['+ @implode', loop('{$item.id}{","|implode:$item.tags}')],
  ['+ truncate:80', loop('{$item.id}{$item.body|truncate:80:"...":true}')],
  ['+ truncate:80, escape', loop('{$item.id}{$item.body|truncate:80:"...":true|escape}')],
  ['+ @join, escape', loop('{$item.id}{$item.tags|@join:", "|escape}')],
  ['+ default', loop('{$item.id}{$item.missing|default:"none"}')],
  ['+ nl2br (body)', loop('{$item.id}{$item.body|nl2br}')],
  ['+ number_format', loop('{$item.id}{$item.date|number_format}')],
];

async function listVariants(): Promise<Variant[]> {
  const { readFileSync } = await import('node:fs');
  const data = generate() as unknown as Record<string, unknown>;
  const page = readFileSync(new URL('templates/page.tpl', import.meta.url), 'utf8');
  return [...LIST_VARIANTS, ['the list page', page] as [string, string]].map(([name, source]) => ({
    name,
    source,
    vars: data,
  }));
}

/** `|name` or `|@name` with its literal arguments (numbers, quoted text, bare words). */
const modifierCall = (name: string) => new RegExp(`\\|@?${name}(?::(?:"[^"]*"|'[^']*'|[^|}:\\s"']+))*`, 'g');

function pageVariants(name: string): Variant[] {
  const page = pages().find((p) => p.name === name);
  if (!page)
    throw new Error(
      `--page takes one of ${pages()
        .map((p) => p.name)
        .join(', ')}`,
    );
  const modifiers = [...new Set([...page.template.matchAll(/\|@?(\w+)/g)].map((m) => m[1]!))];
  const without = (names: string[]) => names.reduce((t, m) => t.replace(modifierCall(m), ''), page.template);
  return [
    { name: 'empty, no vars', source: '', vars: {} },
    { name: "empty, the page's vars", source: '', vars: page.vars },
    { name: 'the page without modifiers', source: without(modifiers), vars: page.vars },
    ...modifiers.map((m) => ({ name: `the page without ${m}`, source: without([m]), vars: page.vars })),
    { name: 'the page', source: page.template, vars: page.vars },
  ];
}

const med = (xs: number[]) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const quartile = (xs: number[]) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 4)]!;

/** `--isolate`: each variant's loop and fresh render in one bench isolate, rounds alternating. */
async function isolateCosts(variants: Variant[], timezone: string): Promise<void> {
  process.env.BENCH_SRC ??= '1'; // the compiler from src/, not bench/.build (only the runtime bundle is measured)
  const { BenchIsolate } = await import('./lib/harness.js');
  const { renderRequest, withLimits, withTables } = await import('../src/sandbox/request.js');
  const { DEFAULT_LIMITS } = await import('../src/sandbox/limits.js');
  const b = new BenchIsolate();
  // The vars as IsolateHost sends them: their lists of rows as tables (D281).
  const request = (name: string, vars: Record<string, unknown>) =>
    withLimits(
      withTables(
        renderRequest({
          templateName: name,
          now: 1_700_000_000,
          site: { timezone, lang: 'ja', rootUrl: 'http://localhost' },
          vars: vars as never,
          seed: Array.from({ length: 16 }, (_, i) => i),
        }),
      ),
      DEFAULT_LIMITS,
    );
  // Every variant but the empty ones renders the page's vars: they are the loop's resident request.
  const vars = variants[variants.length - 1]!.vars;
  // The hand-written page reads the vars as plain data, not as the request's tables.
  const copy = (x: unknown) => new ivm.ExternalCopy(x).copyInto({ release: true });
  b.fn('setRequest').applySync(undefined, [copy(request('v', vars)), copy(vars)]);
  variants.forEach((v, i) => b.define(v.source, `v${i}`));
  const loop = b.fn('scLoop');
  const once = b.fn('scOnce');
  const fresh = (i: number) =>
    b.render.applySync(
      undefined,
      [`v${i}`, new ivm.ExternalCopy(request(`v${i}`, variants[i]!.vars)).copyInto({ release: true })],
      { result: { copy: true } },
    );
  const hand = pageName === null ? b.fn('plainLoop') : null;
  const n = renders;
  const freshN = Math.max(20, Math.round(renders / 4));
  const samples = variants.map(() => ({ loop: [] as number[], resident: [] as number[], fresh: [] as number[] }));
  const handSamples: number[] = [];
  const cpu = () => Number(b.isolate.cpuTime) / 1000;
  for (let i = 0; i < variants.length; i++) {
    loop.applySync(undefined, [`v${i}`, 20]);
    for (let k = 0; k < 20; k++) fresh(i);
    if (pageName !== null) for (let k = 0; k < 20; k++) once.applySync(undefined, [`v${i}`]);
  }
  for (let r = 0; r < rounds; r++) {
    for (let i = 0; i < variants.length; i++) {
      let t = cpu();
      loop.applySync(undefined, [`v${i}`, n]);
      samples[i]!.loop.push((cpu() - t) / n);
      t = cpu();
      for (let k = 0; k < freshN; k++) fresh(i);
      samples[i]!.fresh.push((cpu() - t) / freshN);
      if (pageName === null) continue;
      t = cpu();
      for (let k = 0; k < freshN; k++) once.applySync(undefined, [`v${i}`]);
      samples[i]!.resident.push((cpu() - t) / freshN);
    }
    if (hand) {
      const t = cpu();
      hand.applySync(undefined, [n]);
      handSamples.push((cpu() - t) / n);
    }
  }
  b.dispose();
  const cell = (xs: number[]) => `${med(xs).toFixed(1)} (${quartile(xs).toFixed(1)})`;
  console.log(
    `in a bench isolate: CPU µs per render, median (lower quartile) of ${rounds} rounds; loop x${n}, fresh x${freshN}`,
  );
  if (pageName === null) {
    const l0 = med(samples[0]!.loop);
    const f0 = med(samples[0]!.fresh);
    console.log('| variant | loop | over the floor, ns per item | fresh | over the floor, ns per item |');
    console.log('|---|---:|---:|---:|---:|');
    variants.forEach((v, i) => {
      const { loop: l, fresh: f } = samples[i]!;
      const over = (xs: number[], floor: number) => (i === 0 ? '' : ((med(xs) - floor) * 10).toFixed(0));
      console.log(`| ${v.name} | ${cell(l)} | ${over(l, l0)} | ${cell(f)} | ${over(f, f0)} |`);
    });
    console.log(`| the hand-written page, same isolate | ${cell(handSamples)} | | | |`);
    return;
  }
  const last = samples.length - 1;
  console.log(
    `| ${pageName} page | loop | the page minus this | resident | the page minus this | fresh | the page minus this |`,
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  variants.forEach((v, i) => {
    const { loop: l, resident: o, fresh: f } = samples[i]!;
    const whole = samples[last]!;
    const minus = (xs: number[], all: number[]) => (i === last ? '' : (med(all) - med(xs)).toFixed(1));
    console.log(
      `| ${v.name} | ${cell(l)} | ${minus(l, whole.loop)} | ${cell(o)} | ${minus(o, whole.resident)} | ${cell(f)} | ${minus(f, whole.fresh)} |`,
    );
  });
}

async function main(): Promise<void> {
  const variants = pageName === null ? await listVariants() : pageVariants(pageName);
  if (inIsolate)
    return isolateCosts(variants, pageName === null ? 'UTC' : pages().find((p) => p.name === pageName)!.timezone);
  const timezone = pageName === null ? 'UTC' : pages().find((p) => p.name === pageName)!.timezone;
  const e = createEngine({ workers: 0, timezone, limits: { syncSliceMs: slice } });
  const samples = variants.map(() => [] as number[]);
  const render = (v: Variant) => e.render(v.source, { vars: v.vars as never, identity: { tenant: 'costs' } });
  for (const v of variants) for (let i = 0; i < 50; i++) await render(v);
  for (let r = 0; r < rounds; r++) {
    for (let k = 0; k < variants.length; k++) {
      const c0 = process.cpuUsage();
      for (let i = 0; i < renders; i++) await render(variants[k]!);
      const c = process.cpuUsage(c0);
      samples[k]!.push((c.user + c.system) / renders);
    }
  }
  e.close();
  console.log(
    `engine.render, workers 0, slice ${slice} ms: CPU µs per render, median of ${rounds} rounds x ${renders} (range)`,
  );
  if (pageName === null) {
    const floor = med(samples[0]!);
    console.log('| variant | µs per render | over the floor | per item |');
    console.log('|---|---:|---:|---:|');
    variants.forEach((v, k) => {
      const s = samples[k]!;
      const m = med(s);
      const over = k === 0 ? '' : (m - floor).toFixed(0);
      const perItem = k === 0 ? '' : ((m - floor) / 100).toFixed(2);
      console.log(
        `| ${v.name} | ${m.toFixed(0)} (${Math.min(...s).toFixed(0)}-${Math.max(...s).toFixed(0)}) | ${over} | ${perItem} |`,
      );
    });
    return;
  }
  const whole = med(samples[samples.length - 1]!);
  console.log(`| ${pageName} page | µs per render | the page minus this |`);
  console.log('|---|---:|---:|');
  variants.forEach((v, k) => {
    const s = samples[k]!;
    const m = med(s);
    const minus = k === variants.length - 1 ? '' : (whole - m).toFixed(0);
    console.log(
      `| ${v.name} | ${m.toFixed(0)} (${Math.min(...s).toFixed(0)}-${Math.max(...s).toFixed(0)}) | ${minus} |`,
    );
  });
}

void main();
