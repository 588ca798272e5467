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
 *   node --no-node-snapshot --import tsx bench/costs.ts [--rounds N] [--renders N] [--slice MS] [--page NAME]
 *
 * Rounds alternate the variants; figures are medians of the rounds, CPU µs per render.
 */
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

interface Variant {
  name: string;
  source: string;
  vars: Record<string, unknown>;
}

const loop = (body: string) => `{foreach from=$items item=item}${body}{/foreach}`;
const LIST_VARIANTS: [string, string][] = [
  ['floor: {$item.id}', loop('{$item.id}')],
  ['+ escape (title)', loop('{$item.id}{$item.title|escape}')],
  ['+ date_format', loop('{$item.id}{$item.date|date_format:"%Y-%m-%d"}')],
  ['+ @join', loop('{$item.id}{$item.tags|@join:", "}')],
  ['+ @implode', loop('{$item.id}{","|implode:$item.tags}')],
  ['+ truncate:80', loop('{$item.id}{$item.body|truncate:80:"...":true}')],
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

async function main(): Promise<void> {
  const variants = pageName === null ? await listVariants() : pageVariants(pageName);
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
  const med = (xs: number[]) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
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
