/**
 * `npm run bench:constructs`: each construct of a page on its own against Smarty 2.6.33 (issue 35:
 * faster than the PHP engine on any page, not only the benchmark's). Every construct of
 * bench/constructs/ runs over the same 100 rows through smartcage's whole request
 * (`engine.render`, workers 0, the default slice, a tenant per construct) and through Smarty
 * 2.6.33 on PHP 8.2 with OPcache (bench/pages/smarty2.php). Outputs are checked equal first;
 * a construct whose outputs differ is reported and not timed.
 *
 * The table is sorted by the template's own part: each side's CPU per render less its `empty`
 * construct (the rows crossing in, the call, the answer out for smartcage; a new Smarty, the
 * assigns and fetch for PHP). A construct high in that column is where a page of it would lose
 * to PHP whatever the floor does.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { constructs, constructVars, type Construct } from './constructs/constructs.js';
import { runBench, UsageError, wholeNumber } from './lib/cli.js';
import { median } from './lib/measure.js';
import { firstDifference, smarty2, smarty2Missing } from './lib/smarty2-peer.js';

const HELP = `Usage: npm run bench:constructs -- [--rounds N] [--renders N] [--only NAME,...] [--out FILE]

  --rounds N    rounds through both engines (default 5); each figure is the median of the rounds
  --renders N   renders per construct and engine in a round (default 300)
  --only LIST   these constructs only (the empty one is always measured: it is the floor)
  --out FILE    also write the table there (markdown)
Needs SMARTY2_DIR (an unpacked Smarty 2.6.33) and php on the PATH; without them it prints a note.`;

interface Options {
  rounds: number;
  renders: number;
  only: string[] | null;
  out: string | null;
}

function parseArgs(argv: string[]): Options | null {
  const o: Options = { rounds: 5, renders: 300, only: null, out: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const v = argv[i + 1];
    if (a === '--help' || a === '-h') return null;
    if (a === '--rounds') o.rounds = wholeNumber(a, v);
    else if (a === '--renders') o.renders = wholeNumber(a, v);
    else if (a === '--only') o.only = String(v).split(',');
    else if (a === '--out') o.out = String(v);
    else throw new UsageError(`unknown option ${a}`);
    i++;
  }
  return o;
}

const TIMEZONE = 'Asia/Tokyo';
const cpuNow = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};

async function main(opts: Options): Promise<number> {
  const missing = smarty2Missing();
  if (missing) {
    // As bench:pages: the row is skipped with a note (bench:run shows it), not a failure.
    console.log(`Smarty 2.6.33: ${missing}.`);
    return 0;
  }
  process.env.BENCH_SRC ??= '1';
  const { loadSmartcage } = await import('./lib/smartcage.js');
  const sc = await loadSmartcage();
  const vars = constructVars();
  const all = constructs().filter((c) => c.name === 'empty' || !opts.only || opts.only.includes(c.name));
  const unknown = opts.only?.filter((n) => !all.some((c) => c.name === n)) ?? [];
  if (unknown.length) throw new UsageError(`no such construct: ${unknown.join(', ')}`);
  const engine = sc.createEngine({ workers: 0, timezone: TIMEZONE });
  const render = (c: Construct) =>
    engine.render(c.template, { name: `${c.name}.tpl`, vars, identity: { tenant: `constructs-${c.name}` } });
  const asPages = (cs: Construct[]) =>
    cs.map((c) => ({ name: c.name, template: c.template, vars, timezone: TIMEZONE }));

  // Outputs first: what Smarty 2.6.33 prints is what smartcage must print.
  const php = smarty2(asPages(all), 1);
  const timed: Construct[] = [];
  const differs: string[] = [];
  for (const c of all) {
    const want = php.pages.find((p) => p.name === c.name)!.output;
    const got = await render(c).then(
      (r) => r.output,
      (e: Error) => `(error) ${e.message}`,
    );
    if (got === want) timed.push(c);
    else differs.push(`${c.name}: ${firstDifference(want, got)}`);
  }
  if (!timed.some((c) => c.name === 'empty')) throw new Error('the empty construct differs: nothing to measure');
  console.error(
    `outputs equal on ${timed.length} of ${all.length} constructs; PHP ${php.php}, OPcache ${php.opcache ? 'on' : 'OFF'}`,
  );
  for (const d of differs) console.error(`differs: ${d}`);

  const ours = new Map<string, number[]>();
  const theirs = new Map<string, number[]>();
  const put = (m: Map<string, number[]>, k: string, us: number) => m.set(k, [...(m.get(k) ?? []), us]);
  for (let round = 0; round < opts.rounds; round++) {
    console.error(`round ${round + 1}/${opts.rounds}`);
    for (const c of timed) {
      for (let i = 0; i < 20; i++) await render(c);
      const c0 = cpuNow();
      for (let i = 0; i < opts.renders; i++) await render(c);
      put(ours, c.name, (cpuNow() - c0) / opts.renders);
    }
    for (const r of smarty2(asPages(timed), opts.renders).pages) put(theirs, r.name, r.cpuUs);
  }
  await engine.close();

  const sc0 = median(ours.get('empty')!);
  const php0 = median(theirs.get('empty')!);
  const rows = timed.map((c) => {
    const s = median(ours.get(c.name)!);
    const p = median(theirs.get(c.name)!);
    // The template's part on each side; a part PHP does in under 2 µs is not divided by.
    const part = c.name === 'empty' ? NaN : (s - sc0) / Math.max(p - php0, 2);
    return { name: c.name, s, p, part };
  });
  rows.sort((a, b) => (Number.isNaN(a.part) ? 1 : Number.isNaN(b.part) ? -1 : b.part - a.part));
  const lines = [
    `Constructs over 100 rows: CPU µs per render, median of ${opts.rounds} rounds x ${opts.renders} renders; PHP ${php.php}, OPcache ${php.opcache ? 'on' : 'OFF'}`,
    '',
    '| construct | smartcage | Smarty 2.6.33 | smartcage / Smarty 2 | smartcage - empty | Smarty 2 - empty | template part / Smarty 2 |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.name} | ${r.s.toFixed(0)} | ${r.p.toFixed(0)} | ${(r.s / r.p).toFixed(2)} | ${(r.s - sc0).toFixed(0)} | ${(r.p - php0).toFixed(0)} | ${Number.isNaN(r.part) ? '' : r.part.toFixed(2)} |`,
    ),
    ...(differs.length ? ['', 'Not timed, outputs differ:', ...differs.map((d) => `- ${d}`)] : []),
  ];
  const text = lines.join('\n');
  console.log(text);
  if (opts.out) {
    mkdirSync(dirname(opts.out), { recursive: true });
    writeFileSync(opts.out, text + '\n');
  }
  return differs.length ? 1 : 0;
}

runBench('bench:constructs', HELP, parseArgs, main);
