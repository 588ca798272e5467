/**
 * `npm run bench:pages`: the multi-page benchmark (issue 35, goal 5). Five pages (bench/pages/):
 * the list page, a mail body, a JSON API answer, a Japanese page and a page of {section} and
 * {if}, each rendered by the hand-written function, Eta, smartcage's whole request
 * (`engine.render`, workers 0, in this process) and Smarty 2.6.33 on PHP 8.2 with OPcache (a
 * long-running PHP process, bench/pages/smarty2.php; skipped with a note when SMARTY2_DIR is not
 * set). Every output is checked byte-equal to the hand-written function's first. The headline is
 * the geometric mean over the pages of smartcage against Smarty 2 and against the hand-written
 * function. One more smartcage row renders an empty template with each page's vars: the floor of
 * the sandbox's whole request on that page (the vars in, the call, the answer out) before the
 * template does anything, which no change to the compiler or the plugins can go below.
 *
 * Rounds alternate the subjects (the machine is shared and noisy); each figure is the median of
 * the rounds' CPU µs per render (this process's user + system time, isolated-vm's threads
 * included; PHP's getrusage in its own process).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { escapeHtml } from './engines/hand-written.js';
import { helpers, pages, type Page } from './pages/pages.js';
import { runBench, UsageError, wholeNumber } from './lib/cli.js';
import type { SmartcageModule } from './lib/smartcage.js';
import { firstDifference, geomean, smarty2, smarty2Missing } from './lib/smarty2-peer.js';

const HELP = `Usage: npm run bench:pages -- [--rounds N] [--renders N] [--slices MS,MS...] [--tenants N] [--shared N] [--out FILE] [--only PAGE,...]

  --rounds N     rounds through every subject (default 5); each figure is the median of the rounds
  --renders N    renders per subject and page in a round (default 300; PHP renders as many)
  --slices LIST  smartcage rows, one per synchronous slice in ms (default: the engine's default)
  --tenants N    one more smartcage row whose renders go to N tenants in turn (an isolate each),
                 as a host of many sites sees them; the other rows render each page in one tenant
  --shared N     with --tenants: one more row where those tenants are one owner's, sharing
                 isolates N at a time, a context each (pool.tenantsPerIsolate, docs/decisions.md D342)
  --out FILE     also write the table there (markdown)
  --only LIST    these pages only
Smarty 2.6.33 needs SMARTY2_DIR (an unpacked release) and php on the PATH; without them its row is skipped.`;

interface Options {
  rounds: number;
  renders: number;
  slices: (number | null)[];
  tenants: number;
  shared: number;
  out: string | null;
  only: string[] | null;
}

function parseArgs(argv: string[]): Options | null {
  const o: Options = { rounds: 5, renders: 300, slices: [null], tenants: 1, shared: 1, out: null, only: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const v = argv[i + 1];
    if (a === '--help' || a === '-h') return null;
    if (a === '--rounds' || a === '--renders') {
      const n = wholeNumber(a, v);
      o[a === '--rounds' ? 'rounds' : 'renders'] = n;
    } else if (a === '--slices') {
      o.slices = String(v).split(',').map(Number);
      if (o.slices.some((n) => !Number.isFinite(n) || (n as number) < 0))
        throw new UsageError('--slices takes ms values >= 0, comma-separated');
    } else if (a === '--tenants') o.tenants = wholeNumber(a, v);
    else if (a === '--shared') o.shared = wholeNumber(a, v);
    else if (a === '--out') o.out = String(v);
    else if (a === '--only') o.only = String(v).split(',');
    else throw new UsageError(`unknown option ${a}`);
    i++;
  }
  return o;
}

const require = createRequire(import.meta.url);

interface Subject {
  label: string;
  /** Renders something else than the page (the floor): its output is not checked. */
  floor?: boolean;
  output(page: Page): Promise<string>;
  /** CPU µs per render over `n` renders. */
  time(page: Page, n: number): Promise<number>;
}

function cpuNow(): number {
  const u = process.cpuUsage();
  return u.user + u.system;
}

function handWritten(): Subject {
  return {
    label: 'hand-written',
    output: async (p) => p.hand(p.vars),
    async time(p, n) {
      let keep = 0;
      const c0 = cpuNow();
      for (let i = 0; i < n; i++) keep += p.hand(p.vars).length;
      const us = (cpuNow() - c0) / n;
      if (keep < 0) throw new Error('unreachable');
      return us;
    },
  };
}

function eta(): Subject {
  const { Eta } = require('eta') as typeof import('eta');
  const fns = new Map<string, { call(): string }>();
  const fnFor = (p: Page) => {
    let f = fns.get(p.name);
    if (!f) {
      // The list page's template (bench/templates/page.eta) is written for Eta's default trimming; these, for none.
      const trim = p.name === 'list' ? {} : { autoTrim: false as const };
      const e = p.etaEscapes
        ? new Eta({ autoEscape: true, escapeFunction: escapeHtml, useWith: false, ...trim })
        : new Eta({ autoEscape: false, useWith: false, ...trim });
      const compiled = e.compile(p.eta);
      const ymd = (t: number) => {
        const d = helpers.fields(t, 0);
        return d.y + '-' + d.m + '-' + d.d;
      };
      const it = { ...p.vars, h: helpers, ymd };
      f = { call: () => compiled.call(e, it) };
      fns.set(p.name, f);
    }
    return f;
  };
  return {
    label: 'Eta',
    output: async (p) => fnFor(p).call(),
    async time(p, n) {
      const f = fnFor(p);
      let keep = 0;
      const c0 = cpuNow();
      for (let i = 0; i < n; i++) keep += f.call().length;
      const us = (cpuNow() - c0) / n;
      if (keep < 0) throw new Error('unreachable');
      return us;
    },
  };
}

/**
 * smartcage's whole request, one engine per time zone. With `tenants` above 1 each page's renders
 * go to that many tenants in turn: each tenant has an isolate of its own, whose code V8 optimizes
 * apart from the others', and the renders switch isolate every time (docs/decisions.md D315). With
 * `shared` above 1 the tenants are one owner's and share isolates that many at a time, a context
 * each (D342).
 */
function smartcage(
  sc: SmartcageModule,
  sliceMs: number | null,
  tenants = 1,
  shared = 1,
  floor = false,
): Subject & { close(): Promise<void> } {
  const engines = new Map<string, ReturnType<SmartcageModule['createEngine']>>();
  const engineFor = (p: Page) => {
    let e = engines.get(p.timezone);
    if (!e) {
      // An engine without the option keeps its default, so the row measures what an embedder gets.
      const slice = sliceMs === null ? {} : { syncSliceMs: sliceMs };
      const sharing = shared > 1 ? { pool: { tenantsPerIsolate: shared }, isolateGroup: () => 'one owner' } : {};
      e = sc.createEngine({ workers: 0, timezone: p.timezone, ...slice, ...sharing } as Parameters<
        SmartcageModule['createEngine']
      >[0]);
      engines.set(p.timezone, e);
    }
    return e;
  };
  let turn = 0;
  const tenant = (p: Page) => (tenants === 1 ? `pages-${p.name}` : `pages-${p.name}-${turn++ % tenants}`);
  const render = (p: Page) =>
    engineFor(p).render(floor ? '' : p.template, {
      name: `${p.name}${floor ? '-floor' : ''}.tpl`,
      vars: p.vars,
      identity: { tenant: tenant(p) },
    });
  const label = sliceMs === null ? 'smartcage' : `smartcage, slice ${sliceMs} ms`;
  return {
    label: floor
      ? `${label}, an empty template`
      : tenants === 1
        ? label
        : `${label}, ${tenants} tenants${shared > 1 ? ` sharing isolates ${shared} at a time` : ''}`,
    floor,
    output: async (p) => (await render(p)).output,
    async time(p, n) {
      for (let i = 0; i < 20 * tenants; i++) await render(p);
      const c0 = cpuNow();
      for (let i = 0; i < n; i++) await render(p);
      return (cpuNow() - c0) / n;
    },
    close: () => Promise.all([...engines.values()].map((e) => e.close())).then(() => {}),
  };
}

const median = (xs: number[]) => {
  const s = xs.slice().sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
};

async function main(opts: Options): Promise<number> {
  process.env.BENCH_SRC ??= '1';
  const { loadSmartcage } = await import('./lib/smartcage.js');
  const sc = await loadSmartcage();
  const ps = pages().filter((p) => !opts.only || opts.only.includes(p.name));
  const engines = opts.slices.map((s) => smartcage(sc, s));
  if (opts.tenants > 1) engines.push(smartcage(sc, opts.slices[0]!, opts.tenants));
  if (opts.tenants > 1 && opts.shared > 1) engines.push(smartcage(sc, opts.slices[0]!, opts.tenants, opts.shared));
  engines.push(smartcage(sc, opts.slices[0]!, 1, 1, true));
  const subjects: Subject[] = [handWritten(), eta(), ...engines];
  const phpNote = smarty2Missing();

  // Outputs first: every subject against the hand-written function.
  for (const p of ps) {
    const want = p.hand(p.vars);
    for (const s of subjects) {
      if (s.floor) continue;
      const got = await s.output(p);
      if (got !== want) throw new Error(`${s.label} differs on page ${p.name} ${firstDifference(want, got)}`);
    }
  }
  let phpInfo = '';
  if (!phpNote) {
    const a = smarty2(ps, 1);
    phpInfo = `PHP ${a.php}, OPcache ${a.opcache ? 'on' : 'OFF'}`;
    for (const r of a.pages) {
      const p = ps.find((x) => x.name === r.name)!;
      if (r.output !== p.hand(p.vars))
        throw new Error(`Smarty 2 differs on page ${p.name} ${firstDifference(p.hand(p.vars), r.output)}`);
    }
  }
  const checked = subjects.filter((s) => !s.floor).length + (phpNote ? 0 : 1);
  console.error(`outputs equal on ${ps.length} pages (${checked} subjects)`);

  const labels = [...subjects.map((s) => s.label), ...(phpNote ? [] : ['Smarty 2.6.33'])];
  const samples = new Map<string, number[]>();
  const put = (page: string, label: string, us: number) => {
    const k = `${page}\u0000${label}`;
    samples.set(k, [...(samples.get(k) ?? []), us]);
  };
  for (let round = 0; round < opts.rounds; round++) {
    console.error(`round ${round + 1}/${opts.rounds}`);
    for (const p of ps) for (const s of subjects) put(p.name, s.label, await s.time(p, opts.renders));
    if (!phpNote) for (const r of smarty2(ps, opts.renders).pages) put(r.name, 'Smarty 2.6.33', r.cpuUs);
  }
  // Awaited: the process exits soon after, and an exit while a disposed isolate's work is still
  // ending crashes it (D351).
  await Promise.all(engines.map((e) => e.close()));

  const med = (page: string, label: string) => median(samples.get(`${page}\u0000${label}`)!);
  const lines: string[] = [];
  lines.push(
    `Multi-page benchmark: CPU µs per render, median of ${opts.rounds} rounds x ${opts.renders} renders${phpInfo ? `; ${phpInfo}` : ''}`,
  );
  lines.push('');
  const ratioCols = engines.flatMap((e) => [`${e.label} / hand`, ...(phpNote ? [] : [`${e.label} / Smarty 2`])]);
  lines.push(`| page | ${labels.join(' | ')} | ${ratioCols.join(' | ')} |`);
  lines.push(`|---|${labels.map(() => '---:').join('|')}|${ratioCols.map(() => '---:').join('|')}|`);
  const ratios = new Map<string, number[]>();
  for (const p of ps) {
    const cells = labels.map((l) => med(p.name, l).toFixed(0));
    const rs: string[] = [];
    for (const e of engines) {
      const pairs: [string, string][] = [
        [`${e.label} / hand`, 'hand-written'],
        ...(phpNote ? [] : [[`${e.label} / Smarty 2`, 'Smarty 2.6.33'] as [string, string]]),
      ];
      for (const [col, base] of pairs) {
        const r = med(p.name, e.label) / med(p.name, base);
        ratios.set(col, [...(ratios.get(col) ?? []), r]);
        rs.push(r.toFixed(2));
      }
    }
    lines.push(`| ${p.name} | ${cells.join(' | ')} | ${rs.join(' | ')} |`);
  }
  lines.push(
    `| **geometric mean** | ${labels.map((l) => geomean(ps.map((p) => med(p.name, l))).toFixed(0)).join(' | ')} | ${ratioCols.map((c) => `**${geomean(ratios.get(c)!).toFixed(2)}**`).join(' | ')} |`,
  );
  if (phpNote) lines.push('', `Smarty 2.6.33: ${phpNote}.`);
  const text = lines.join('\n');
  console.log(text);
  if (opts.out) {
    mkdirSync(dirname(opts.out), { recursive: true });
    writeFileSync(opts.out, text + '\n');
  }
  return 0;
}

runBench('bench:pages', HELP, parseArgs, main);
