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
 *   node --expose-gc --no-node-snapshot --import tsx bench/costs.ts --entry [--base BUNDLE] [--rounds N] [--renders N]
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
import { renderRequest, withLimits, withTables } from '../src/sandbox/request.js';
import { DEFAULT_LIMITS } from '../src/sandbox/limits.js';

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
const entry = process.argv.includes('--entry');
const baseAt = process.argv.indexOf('--base');
const baseBundle = baseAt < 0 ? null : (process.argv[baseAt + 1] ?? '');

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

/** A render request as IsolateHost sends it: fixed clock and seed, its lists of rows as tables (D281). */
function tablesRequest(templateName: string, vars: Record<string, unknown>, timezone: string) {
  return withLimits(
    withTables(
      renderRequest({
        templateName,
        now: 1_700_000_000,
        site: { timezone, lang: 'ja', rootUrl: 'http://localhost' },
        vars: vars as never,
        seed: Array.from({ length: 16 }, (_, i) => i),
      }),
    ),
    DEFAULT_LIMITS,
  );
}

const med = (xs: number[]) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const quartile = (xs: number[]) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 4)]!;

/** `--isolate`: each variant's loop and fresh render in one bench isolate, rounds alternating. */
async function isolateCosts(variants: Variant[], timezone: string): Promise<void> {
  process.env.BENCH_SRC ??= '1'; // the compiler from src/, not bench/.build (only the runtime bundle is measured)
  const { BenchIsolate } = await import('./lib/harness.js');
  const b = new BenchIsolate();
  const request = (name: string, vars: Record<string, unknown>) => tablesRequest(name, vars, timezone);
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

/**
 * `--entry`: what a render does besides its page's code (D304), on the five pages of bench:pages,
 * in one bench isolate per runtime. CPU µs per render, lower quartile of the rounds (a shared
 * machine's load only adds):
 * - "loop": the page's code `--renders` times in one call (its vars read already);
 * - "render": the runtime's `render` in a loop inside the isolate over the same resident request,
 *   each output flattened as the copy out does (V8's serializer flattens a string first); "raw"
 *   the same without the flattening; "empty": an empty template's, over the page's request and
 *   over none;
 * - "resident": one `render` per `applySync`, as bench/costs.ts --isolate has it (the answer's
 *   copy out and the call's own crossing added);
 * - "fresh": one `render` per `applySync` with the request copied in (its vars' first reads added,
 *   and the copy in, which the isolate's clock counts). "copy in": an empty template's fresh
 *   render over the page's request minus its resident one; "first reads": fresh - resident - copy
 *   in (the vars' conversions on first read, and the collections of the request's copy).
 * render - loop then splits into the entry's fixed work (empty), the vars' top level (empty over
 * the page's request - empty), the page's first run (raw - empty over the page's request - loop)
 * and the output's flattening (render - raw). Heap: what one render allocates, KB (`allocated`,
 * which needs node's --expose-gc), for the loop's iterations and for a render. With `--base BUNDLE`, the same in an isolate of that runtime
 * bundle (another tree's dist/runtime.bundle.js), the rounds alternating: an A/B in the same minutes.
 *
 *   node --expose-gc --no-node-snapshot --import tsx bench/costs.ts --entry [--base BUNDLE] [--rounds N] [--renders N]
 */
async function entryCosts(): Promise<void> {
  process.env.BENCH_SRC ??= '1';
  const { readFileSync } = await import('node:fs');
  const { BenchIsolate } = await import('./lib/harness.js');
  type Bench = InstanceType<typeof BenchIsolate>;
  const all = pages();
  const requests = all.map((p, i) => tablesRequest(`p${i}`, p.vars, p.timezone));
  const copy = (x: unknown) => new ivm.ExternalCopy(x).copyInto({ release: true });
  const runtimes = [{ name: 'this tree', text: undefined as string | undefined }];
  if (baseBundle) runtimes.push({ name: `base (${baseBundle})`, text: readFileSync(baseBundle, 'utf8') });
  const isolates = runtimes.map((r) => {
    const b = new BenchIsolate(128, r.text);
    all.forEach((p, i) => {
      b.define(p.template, `p${i}`);
      b.fn('addRequest').applySync(undefined, [`p${i}`, copy(requests[i])]);
    });
    b.define('', 'empty');
    b.fn('addRequest').applySync(undefined, ['none', copy(tablesRequest('empty', {}, 'UTC'))]);
    return b;
  });
  const n = renders;
  const k = Math.max(20, Math.round(renders / 4));
  const parts = [
    'loop',
    'raw',
    'render',
    'emptyVars',
    'empty',
    'resident',
    'fresh',
    'emptyResident',
    'emptyFresh',
  ] as const;
  type Part = (typeof parts)[number];
  const cpu = (b: Bench) => Number(b.isolate.cpuTime) / 1000;
  const call = (b: Bench, f: string, args: (string | number | boolean)[]) => b.fn(f).applySync(undefined, args);
  /** `render` `times` times in one call of the prelude (bench/lib/harness.ts `scRenders`). */
  const renderLoop = (b: Bench, id: string, key: string, times: number, flat: boolean) =>
    call(b, 'scRenders', [id, times, key, flat]);
  /** Runs `part` `times` times (the loop: once, of `n`); CPU µs per render. */
  const run = (b: Bench, i: number, part: Part, times: number): number => {
    const id = `p${i}`;
    const t = cpu(b);
    switch (part) {
      case 'loop':
        call(b, 'scLoop', [id, n, id]);
        return (cpu(b) - t) / n;
      case 'raw':
      case 'render':
        renderLoop(b, id, id, times, part === 'render');
        break;
      case 'emptyVars':
        renderLoop(b, 'empty', id, times, true);
        break;
      case 'empty':
        renderLoop(b, 'empty', 'none', times, true);
        break;
      case 'resident':
        for (let j = 0; j < times; j++) call(b, 'scOnce', [id, id]);
        break;
      case 'fresh':
      case 'emptyFresh':
        for (let j = 0; j < times; j++)
          b.render.applySync(undefined, [part === 'fresh' ? id : 'empty', copy(requests[i])], {
            result: { copy: true },
          });
        break;
      case 'emptyResident':
        for (let j = 0; j < times; j++) call(b, 'scOnce', ['empty', id]);
        break;
    }
    return (cpu(b) - t) / times;
  };
  /**
   * KB one render allocates: the used heap's growth over a call of `f(2)` minus that of `f(1)`,
   * each from a full collection (the young generation then empty holds both renders; a call's
   * first render after a full collection also remakes its code's feedback, which cancels out).
   */
  const allocated = (b: Bench, f: (times: number) => void) => {
    const grown = (times: number) => {
      if (b.context.evalSync('smartcage.reduceMemory()') !== true) return NaN;
      const before = b.isolate.getHeapStatisticsSync().used_heap_size;
      f(times);
      return b.isolate.getHeapStatisticsSync().used_heap_size - before;
    };
    let sum = 0;
    for (let j = 0; j < 5; j++) sum += grown(2) - grown(1);
    return sum / 5 / 1024;
  };
  const samples = isolates.map(() => all.map(() => new Map<Part, number[]>(parts.map((p) => [p, []]))));
  const heap = isolates.map((b) =>
    all.map((_, i) => {
      for (const part of parts) run(b, i, part, 20);
      return {
        loop: allocated(b, (times) => call(b, 'scLoop', [`p${i}`, times, `p${i}`])),
        render: allocated(b, (times) => renderLoop(b, `p${i}`, `p${i}`, times, true)),
      };
    }),
  );
  for (let round = 0; round < rounds; round++)
    all.forEach((_, i) => {
      for (const part of parts) isolates.forEach((b, r) => samples[r]![i]!.get(part)!.push(run(b, i, part, k)));
    });
  isolates.forEach((b) => b.dispose());
  console.log(
    `in a bench isolate: CPU µs per render, lower quartile of ${rounds} rounds; loop x${n}, the others x${k}`,
  );
  runtimes.forEach((rt, r) => {
    console.log(`\n${rt.name}`);
    console.log(
      '| page | loop | render | render - loop | empty | vars, top level | first run | flatten | resident | fresh | copy in | first reads | KB loop / render |',
    );
    console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    all.forEach((p, i) => {
      const m = (part: Part) => quartile(samples[r]![i]!.get(part)!);
      const f = (x: number) => x.toFixed(1);
      const h = heap[r]![i]!;
      const cells = [
        m('loop'),
        m('render'),
        m('render') - m('loop'),
        m('empty'),
        m('emptyVars') - m('empty'),
        m('raw') - m('emptyVars') - m('loop'),
        m('render') - m('raw'),
        m('resident'),
        m('fresh'),
        m('emptyFresh') - m('emptyResident'),
        m('fresh') - m('resident') - (m('emptyFresh') - m('emptyResident')),
      ];
      console.log(`| ${p.name} | ${cells.map(f).join(' | ')} | ${f(h.loop)} / ${f(h.render)} |`);
    });
  });
}

async function main(): Promise<void> {
  if (entry) return entryCosts();
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
  await e.close();
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
