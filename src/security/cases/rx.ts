/** B8. RX: regular expressions. */
import type { SecurityCase } from '../types.js';
import { judge, refusesAll } from './helpers.js';
import { sourcesUnder } from './source.js';
import { warmEngine } from './cpu.js';
import { repeatedLimit } from './timing.js';

const BUDGET = { cpuMs: 200, wallMs: 2000 };

export const RX: SecurityCase[] = [
  {
    id: 'RX-01',
    category: 'RX',
    title: 'catastrophic backtracking ends at the CPU budget, in the isolate',
    async run(h) {
      const engine = await warmEngine(h, BUDGET);
      const attempt = () =>
        h.render('{rcms_match var=m pattern="/(a+)+$/" subject=$s}{$m|@count}', {
          engine,
          vars: { s: `${'a'.repeat(40)}!` },
        });
      const a = await attempt();
      // A linear-time regex engine would simply answer: contained, and nothing to time for G3.
      if (a.output === '0')
        return judge(h, a, true, `the match ended after ${a.ms.toFixed(0)} ms without backtracking`);
      return repeatedLimit(h, 'E_CPU_TIMEOUT', BUDGET.cpuMs, attempt, (x) => x.code === 'E_CPU_TIMEOUT');
    },
  },
  refusesAll(
    'RX-02',
    'RX',
    'PCRE-only features are refused by name',
    [
      '{$s|regex_replace:"/(?R)/":""}',
      '{$s|regex_replace:"/(?<=\\Ka)b/":""}',
      '{$s|regex_replace:"/(?(1)a|b)/":""}',
      '{$s|regex_replace:"/(*FAIL)/":""}',
    ],
    ['E_REGEX_UNSUPPORTED'],
    { vars: { s: 'a' } },
  ),
  {
    id: 'RX-03',
    category: 'RX',
    title: 'huge patterns are refused',
    async run(h) {
      const a = await h.render('{$s|regex_replace:$p:""}', { vars: { s: 'a', p: `/${'a|'.repeat(100_000)}b/` } });
      return judge(h, a, a.code === 'E_REGEX_TOO_LARGE', 'E_REGEX_TOO_LARGE');
    },
  },
  {
    id: 'RX-04',
    category: 'RX',
    title: 'a regex through split runs under the same budget',
    async run(h) {
      const a = await h.render('{assign var=parts value="/(x+x+)+y/"|split:$long}{$parts|@count}', {
        vars: { long: 'x'.repeat(40) },
        limits: BUDGET,
      });
      return judge(h, a, a.code === 'E_CPU_TIMEOUT' || a.output !== undefined, `ended after ${a.ms.toFixed(0)} ms`);
    },
  },
  {
    id: 'RX-05',
    category: 'RX',
    title: 'replacement blow-up stops at the size cap',
    async run(h) {
      // Single quotes: in double quotes Smarty 2 reads `$1` as a template variable (D262).
      const a = await h.render(`{$s|regex_replace:"/(.{8})/":'$1$1$1$1$1$1$1$1'|strlen}`, {
        vars: { s: 'x'.repeat(4_000_000) },
        limits: { cpuMs: 5000, wallMs: 10_000 },
      });
      return judge(h, a, a.code === 'E_SIZE_LIMIT' || a.code === 'E_OUTPUT_LIMIT', 'E_SIZE_LIMIT');
    },
  },
  {
    id: 'RX-06',
    category: 'RX',
    title: 'no pattern runs on the embedding host: no module of the bridge imports the PCRE layer',
    async run() {
      const offenders = ['bridge', 'host-api', 'host-plugins', 'host-adapters']
        .flatMap((unit) => sourcesUnder(unit).map(([f, text]): [string, string] => [`${unit}/${f}`, text]))
        .filter(([, text]) => /from ['"][^'"]*php\/pcre\//.test(text))
        .map(([f]) => f);
      return offenders.length > 0
        ? { status: 'escaped', detail: `the bridge imports the PCRE layer in ${offenders.join(', ')}` }
        : { status: 'contained', detail: 'patterns run only in the isolate (read_dir matches in the isolate too)' };
    },
  },
];
