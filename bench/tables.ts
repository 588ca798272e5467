/**
 * `node --no-node-snapshot --import tsx bench/tables.ts [--pages json,list] [--rounds 10] [--renders 300]`:
 * the whole in-process request (`engine.render`, workers 0, the default slice) with the vars as
 * tables (docs/decisions.md D281) against the same vars sent as they are, in one process and one
 * engine, the two taking turns. The plain side is the same data after one more variable, a list
 * that starts with the tables' mark, on which the encoder gives up at once (src/protocol/tables.ts). CPU µs per
 * render (every thread of the process), median of the rounds. Across processes (`bench:ab --row
 * request`) this machine's noise is larger than the change; here both sides share it.
 */
import { createEngine } from '../src/index.js';
import { TABLE_MARK } from '../src/protocol/tables.js';
import { runBench, UsageError, wholeNumber } from './lib/cli.js';
import { median } from './lib/measure.js';
import { pages } from './pages/pages.js';

const HELP = `Usage: node --no-node-snapshot --import tsx bench/tables.ts [--pages A,B] [--rounds N] [--renders N]
  --pages A,B   pages of npm run bench:pages (default json,list,mail,ja,section)
  --rounds N    rounds of both sides (default 10); each figure is the median
  --renders N   renders per side and round (default 300)`;

interface Options {
  pages: string[];
  rounds: number;
  renders: number;
}

function parseArgs(argv: string[]): Options | null {
  const o: Options = { pages: ['json', 'list', 'mail', 'ja', 'section'], rounds: 10, renders: 300 };
  for (let i = 0; i < argv.length; i += 2) {
    const [a, v] = [argv[i]!, argv[i + 1]];
    if (a === '--help' || a === '-h') return null;
    if (a === '--pages') o.pages = String(v).split(',');
    else if (a === '--rounds' || a === '--renders') o[a === '--rounds' ? 'rounds' : 'renders'] = wholeNumber(a, v);
    else throw new UsageError(`unknown option ${a}`);
  }
  return o;
}

async function main(o: Options): Promise<number> {
  const all = await pages();
  console.log(`engine.render, workers 0: CPU µs per render, median of ${o.rounds} rounds x ${o.renders}`);
  console.log('| page | vars as they are | vars as tables | ratio |\n|---|---:|---:|---:|');
  for (const name of o.pages) {
    const page = all.find((p) => p.name === name);
    if (!page) throw new UsageError(`no page ${name}`);
    const engine = createEngine({ workers: 0, now: () => 1_700_000_000, timezone: page.timezone });
    // The marked list first: the encoder gives up at once, before walking the page's data.
    const sides = { plain: { marked: [TABLE_MARK], ...page.vars }, tables: page.vars };
    const samples = { plain: [] as number[], tables: [] as number[] };
    const render = (vars: Record<string, unknown>) => engine.render(page.template, { vars });
    if ((await render(sides.plain)).output !== (await render(sides.tables)).output)
      throw new Error(`${name}: the two sides' outputs differ`);
    for (let i = 0; i < 200; i++) for (const v of Object.values(sides)) await render(v);
    for (let r = 0; r < o.rounds; r++) {
      for (const side of ['plain', 'tables'] as const) {
        const u0 = process.cpuUsage();
        for (let i = 0; i < o.renders; i++) await render(sides[side]);
        const u = process.cpuUsage(u0);
        samples[side].push((u.user + u.system) / o.renders);
      }
    }
    const [a, b] = [median(samples.plain), median(samples.tables)];
    console.log(`| ${name} | ${a.toFixed(1)} | ${b.toFixed(1)} | ${(b / a).toFixed(3)} |`);
    await engine.close();
  }
  return 0;
}

runBench('tables', HELP, parseArgs, main);
