/**
 * Where an in-process request's time goes (issue 35, step 2): `engine.render` with workers 0 of
 * the list page's data through variants of one loop, each adding one modifier to a bare loop that
 * prints `{$item.id}` (the floor: the variables crossing in, the call, the output crossing out).
 * Each variant's cost is its CPU per render minus the floor's, over the page's 100 items.
 *
 *   node --no-node-snapshot --import tsx bench/costs.ts [--rounds N] [--renders N] [--slice MS]
 *
 * Rounds alternate the variants; figures are medians of the rounds, CPU µs per render.
 */
import { createEngine } from '../src/index.js';
import { generate } from './data/generate.js';

const arg = (name: string, d: number) => {
  const i = process.argv.indexOf(name);
  return i < 0 ? d : Number(process.argv[i + 1]);
};
const rounds = arg('--rounds', 5);
const renders = arg('--renders', 300);
const slice = arg('--slice', 0);

const loop = (body: string) => `{foreach from=$items item=item}${body}{/foreach}`;
const VARIANTS: [string, string][] = [
  ['floor: {$item.id}', loop('{$item.id}')],
  ['+ escape (title)', loop('{$item.id}{$item.title|escape}')],
  ['+ date_format', loop('{$item.id}{$item.date|date_format:"%Y-%m-%d"}')],
  ['+ @join', loop('{$item.id}{$item.tags|@join:", "}')],
  ['+ @implode', loop('{$item.id}{","|implode:$item.tags}')],
  ['+ truncate:80', loop('{$item.id}{$item.body|truncate:80:"...":true}')],
  ['+ default', loop('{$item.id}{$item.missing|default:"none"}')],
  ['+ nl2br (body)', loop('{$item.id}{$item.body|nl2br}')],
  ['+ number_format', loop('{$item.id}{$item.date|number_format}')],
  ['the list page', ''],
];

async function main(): Promise<void> {
  const data = generate();
  const e = createEngine({ workers: 0, timezone: 'UTC', limits: { syncSliceMs: slice } });
  const { readFileSync } = await import('node:fs');
  VARIANTS[VARIANTS.length - 1]![1] = readFileSync(new URL('templates/page.tpl', import.meta.url), 'utf8');
  const samples = VARIANTS.map(() => [] as number[]);
  const render = (src: string) => e.render(src, { vars: data as never, identity: { tenant: 'costs' } });
  for (const [, src] of VARIANTS) for (let i = 0; i < 50; i++) await render(src);
  for (let r = 0; r < rounds; r++) {
    for (let v = 0; v < VARIANTS.length; v++) {
      const c0 = process.cpuUsage();
      for (let i = 0; i < renders; i++) await render(VARIANTS[v]![1]);
      const c = process.cpuUsage(c0);
      samples[v]!.push((c.user + c.system) / renders);
    }
  }
  e.close();
  const med = (xs: number[]) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const floor = med(samples[0]!);
  console.log(
    `engine.render, workers 0, slice ${slice} ms: CPU µs per render, median of ${rounds} rounds x ${renders} (range)`,
  );
  console.log('| variant | µs per render | over the floor | per item |');
  console.log('|---|---:|---:|---:|');
  VARIANTS.forEach(([name], v) => {
    const s = samples[v]!;
    const m = med(s);
    const over = v === 0 ? '' : (m - floor).toFixed(0);
    console.log(
      `| ${name} | ${m.toFixed(0)} (${Math.min(...s).toFixed(0)}-${Math.max(...s).toFixed(0)}) | ${over} | ${v === 0 ? '' : ((m - floor) / 100).toFixed(2)} |`,
    );
  });
}

void main();
