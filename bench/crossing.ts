/**
 * `node --no-node-snapshot --import tsx bench/crossing.ts [--page json|all] [--rounds 9] [--calls 1000] [--ways TEXT]`:
 * the ways a page's variables could cross into an isolate and its answer out of it, timed in one
 * process, the ways taking turns (docs/decisions.md D275-D277). An isolate of dist/runtime.bundle.js
 * with its lockdown, as IsolateHost makes one; CPU µs per call, median of the rounds (range).
 *
 * In: isolated-vm's structured clone of the request as IsolateHost sends it, or of the vars alone,
 * into a function that does nothing; the vars as JSON text (plainJson's check and JSON.stringify
 * here, the string copied, JSON.parse there); an encoding with fewer containers (each array of
 * same-keyed objects as one array per key: D277's naive transform, not the format the
 * runtime reads). The vars as tables (D281): encoded alone, the request with them cloned into a
 * no-op, and a render of an empty template and of the page with the vars plain and as tables.
 * Out: the runtime's render of the page with its answer as an object and as the output string alone.
 * Worker: a sandbox worker's render without the socket: the vars as the pool writes them (its
 * walks and JSON text, made here), the request copied in and the page or an empty template
 * rendered, the vars as `plain-json` text or as `tables-json` (D296).
 * Part: the tables request's crossing taken apart (docs/decisions.md D307): the request without
 * vars, the tables' ExternalCopy alone (the host's serializer), the same copied into a no-op
 * (plus the isolate's deserializer), the same as `copy: true` arguments, an empty template's render
 * without vars and with the tables made before (plus readVars). `--page all`: each page in turn.
 */
import ivm from 'isolated-vm';
import { runBench, UsageError, wholeNumber } from './lib/cli.js';
import { median } from './lib/measure.js';
import { pages, type Page } from './pages/pages.js';
import { constructVars } from './constructs/constructs.js';
import { plainJson, plainVarsOf } from '../src/sandbox/plain-json.js';
import { withTables } from '../src/sandbox/request.js';
import { encodeTables } from '../src/protocol/tables.js';

const HELP = `Usage: node --no-node-snapshot --import tsx bench/crossing.ts [--page NAME] [--rounds N] [--calls N]
  --page NAME   a page of npm run bench:pages (default json), constructs (bench:constructs' rows), or all
  --rounds N    rounds through every way (default 9); each figure is the median
  --calls N     calls per way and round (default 1000)
  --ways TEXT   only the ways whose name holds TEXT`;

/** Each array of plain objects with the same keys as one array per key (nested likewise). */
function columns(x: unknown): unknown {
  if (Array.isArray(x)) {
    const first: unknown = x[0];
    if (first === null || typeof first !== 'object' || Array.isArray(first)) return x.map(columns);
    const keys = Object.keys(first);
    const cols: Record<string, unknown> = {};
    for (const k of keys) cols[k] = columns(x.map((o: Record<string, unknown>) => o[k]));
    return { n: x.length, cols };
  }
  if (x === null || typeof x !== 'object') return x;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(x)) out[k] = columns(v);
  return out;
}

interface Options {
  page: string;
  rounds: number;
  calls: number;
  ways: string;
}

function parseArgs(argv: string[]): Options | null {
  const o: Options = { page: 'json', rounds: 9, calls: 1000, ways: '' };
  for (let i = 0; i < argv.length; i += 2) {
    const [a, v] = [argv[i]!, argv[i + 1]];
    if (a === '--help' || a === '-h') return null;
    if (a === '--page') o.page = String(v);
    else if (a === '--ways') o.ways = String(v);
    else if (a === '--rounds' || a === '--calls') o[a === '--rounds' ? 'rounds' : 'calls'] = wholeNumber(a, v);
    else throw new UsageError(`unknown option ${a}`);
  }
  return o;
}

async function main(o: Options): Promise<number> {
  // `constructs`: bench:constructs' 100 rows, as a page with an empty template.
  const all: Page[] = [...pages(), { ...pages()[0]!, name: 'constructs', template: '', vars: constructVars() }];
  const chosen = o.page === 'all' ? all : all.filter((p) => p.name === o.page);
  if (chosen.length === 0) throw new UsageError(`no page ${o.page}`);
  for (const page of chosen) await measurePage(page, o);
  return 0;
}

async function measurePage(page: Page, o: Options): Promise<void> {
  // One template compiled: src/ through tsx does, without bench/.build/ (bench/lib/smartcage.ts).
  process.env.BENCH_SRC ??= '1';
  const { BenchIsolate, renderRequest } = await import('./lib/harness.js');
  const vars = page.vars;
  const b = new BenchIsolate();
  b.define(page.template, 'page');
  b.define('', 'empty');
  const fns = b.context.evalSync(
    `({
      nothing() { return 0; },
      parse(s) { JSON.parse(s); return 0; },
      outputOnly(id, req) { const r = smartcage.render(id, req); return typeof r === 'string' ? r : r.output; },
      asObject(id, req) { const r = smartcage.render(id, req); return typeof r === 'string' ? { output: r } : r; },
    })`,
    { reference: true },
  ) as ivm.Reference<Record<string, unknown>>;
  const fn = (k: string) => fns.getSync(k, { reference: true }) as ivm.Reference<(...a: unknown[]) => unknown>;
  const [nothing, parse, outputOnly, asObject] = ['nothing', 'parse', 'outputOnly', 'asObject'].map(fn);
  const request = renderRequest(vars, 'page');
  const emptyRequest = renderRequest(vars, 'empty');
  const tabled = (r: typeof request) => withTables(r) as typeof request;
  const noVars = renderRequest(null, 'empty');
  const emptyTables = tabled(emptyRequest);
  const cols = columns(vars);
  // As the pool wrote every plain-data request before D296.
  const plainJsonOf = (r: typeof request) => ({
    ...r,
    vars: { format: 'plain-json', text: plainJson(vars), objects: false },
  });
  const cloned = (data: unknown, f: ivm.Reference<(...a: unknown[]) => unknown>, id?: string) => {
    const c = new ivm.ExternalCopy(data);
    f.applySync(undefined, id ? [id, c.copyInto()] : [c.copyInto()], { result: { copy: true } });
    c.release();
  };
  const ways: Record<string, () => void> = {
    'in: the request cloned (ExternalCopy made alone)': () => new ivm.ExternalCopy(request).release(),
    'in: the request cloned into a no-op': () => cloned(request, nothing!),
    'in: the vars alone cloned into a no-op': () => cloned(vars, nothing!),
    'in: the vars as JSON text (plainJson + JSON.parse there)': () =>
      void parse!.applySync(undefined, [plainJson(vars)]),
    'in: the vars as columns cloned into a no-op (made once)': () => cloned(cols, nothing!),
    'in: the vars made columns here, cloned into a no-op': () => cloned(columns(vars), nothing!),
    'part: the vars as tables (D281), encoded here alone': () => void encodeTables(vars),
    'in: the vars as tables, encoded here, cloned into a no-op': () => cloned(tabled(request), nothing!),
    'render: an empty template, the vars plain': () => cloned(emptyRequest, asObject!, 'empty'),
    'render: an empty template, the vars as tables encoded here': () =>
      cloned(tabled(emptyRequest), asObject!, 'empty'),
    'render: the page, the vars plain': () => cloned(request, asObject!, 'page'),
    'render: the page, the vars as tables encoded here': () => cloned(tabled(request), asObject!, 'page'),
    'out: the page, its answer an object': () => cloned(request, asObject!, 'page'),
    'out: the page, its output string alone': () => cloned(request, outputOnly!, 'page'),
    'worker: an empty template, the vars as plain-json': () => cloned(plainJsonOf(emptyRequest), asObject!, 'empty'),
    'worker: an empty template, the vars as tables-json': () => cloned(plainVarsOf(emptyRequest), asObject!, 'empty'),
    'worker: the page, the vars as plain-json': () => cloned(plainJsonOf(request), asObject!, 'page'),
    'worker: the page, the vars as tables-json': () => cloned(plainVarsOf(request), asObject!, 'page'),
    'part: nothing (the number 0) cloned into a no-op': () => cloned(0, nothing!),
    'part: the request without vars cloned into a no-op': () => cloned(noVars, nothing!),
    'part: the tables request (made before), ExternalCopy made alone': () =>
      new ivm.ExternalCopy(emptyTables).release(),
    'part: the tables request (made before), cloned into a no-op': () => cloned(emptyTables, nothing!),
    'part: the tables request (made before), copy: true arguments into a no-op': () =>
      void nothing!.applySync(undefined, [emptyTables], { arguments: { copy: true } }),
    'part: an empty template, no vars': () => cloned(noVars, asObject!, 'empty'),
    'part: an empty template, the tables request made before': () => cloned(emptyTables, asObject!, 'empty'),
  };
  const names = Object.keys(ways).filter((k) => k.includes(o.ways));
  const samples = new Map<string, number[]>(names.map((k) => [k, []]));
  for (const k of names) for (let i = 0; i < 100; i++) ways[k]!();
  for (let r = 0; r < o.rounds; r++) {
    for (const k of names) {
      const f = ways[k]!;
      const u0 = process.cpuUsage();
      for (let i = 0; i < o.calls; i++) f();
      const u = process.cpuUsage(u0);
      samples.get(k)!.push((u.user + u.system) / o.calls);
    }
  }
  console.log(
    `page ${page.name}: vars ${JSON.stringify(vars).length} characters as JSON; ${o.rounds} rounds x ${o.calls}`,
  );
  for (const k of names) {
    const s = samples.get(k)!;
    console.log(
      `${median(s).toFixed(1).padStart(7)}  (${Math.min(...s).toFixed(1)}-${Math.max(...s).toFixed(1)})  ${k}`,
    );
  }
  b.dispose();
}

runBench('crossing', HELP, parseArgs, main);
