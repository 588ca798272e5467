/** B4. MEM: memory and sizes. */
import type { SecurityCase } from '../types.js';
import { judge, refuses, refusesAll, renders } from './helpers.js';

// Each iteration keeps a new 2,000-character string (a shared literal would fill memory far slower).
const BOMB = '{section name=i loop=100000000}{append var=a value=$smarty.section.i.index|str_pad:2000:"x"}{/section}';
/** Goal G5 (docs/security.md): a heap bomb ends within this many ms at each memory class, MB. */
export const KILL_BUDGET_MS: Record<number, number> = { 128: 1500, 256: 2500, 512: 4000, 768: 6000 };

/** The memory classes, MB, whose kill in MEM-01's figures took longer than their G5 budget. */
export function overKillBudget(figures: Record<string, number> | undefined): string[] {
  return Object.entries(KILL_BUDGET_MS)
    .filter(([mb, ms]) => (figures?.[`kill_ms_${mb}`] ?? 0) > ms)
    .map(([mb]) => mb);
}

export const MEM: SecurityCase[] = [
  {
    id: 'MEM-01',
    category: 'MEM',
    title: 'heap growth ends with E_MEMORY_LIMIT at every memory class; the process lives on',
    async run(h) {
      const figures: Record<string, number> = {};
      const engine = h.engine({ cpuMs: 60_000, wallMs: 90_000 });
      for (const mb of [128, 256, 512, 768]) {
        const prefix = mb === 128 ? '' : `{set_memory memory_limit="${mb}M"}`;
        // G5 times the kill, not a cold start: the worker processes and an isolate of this class
        // exist before the clock starts (a new engine's first render spends ~1.3 s starting them).
        const warm = await h.render(`${prefix}warm`, { engine });
        if (warm.output !== 'warm') return judge(h, warm, false, `a render at ${mb} MB before the bomb`);
        const a = await h.render(prefix + BOMB, { engine });
        figures[`kill_ms_${mb}`] = a.ms;
        if (a.code !== 'E_MEMORY_LIMIT') return judge(h, a, false, `E_MEMORY_LIMIT at ${mb} MB`);
      }
      const slow = overKillBudget(figures);
      return {
        status: 'contained',
        detail: `killed at each class${slow.length ? ` (over the G5 budget at ${slow.join(', ')} MB)` : ''}`,
        figures,
      };
    },
  },
  refusesAll(
    'MEM-02',
    'MEM',
    'helpers that pre-size refuse giant allocations before allocating',
    [
      '{lottery var=x cnt=100000000 ids=$ids duplicate=100000000}',
      '{$s|indent:100000000}',
      '{$n|string_format:"%0100000000d"}',
      '{$s|str_pad:100000000}',
      '{$s|spacify:"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"}{assign var=r value=1|range:100000000}',
      '{assign var=r value=1|range:100000000}',
    ],
    ['E_SIZE_LIMIT'],
    { vars: { ids: [1, 2, 3], s: 'abc', n: 5 } },
  ),
  refuses(
    'MEM-03',
    'MEM',
    'string doubling hits the length cap',
    '{assign var=s value="x"}{section name=i loop=60}{assign var=s value="`$s``$s`"}{/section}{$s|count_characters}',
    ['E_SIZE_LIMIT', 'E_MEMORY_LIMIT'],
  ),
  refuses(
    'MEM-04',
    'MEM',
    'oversized output is refused inside the isolate',
    '{section name=i loop=3000000}xxxxxxxxxx{/section}',
    'E_OUTPUT_LIMIT',
    { limits: { maxOutputChars: 16 * 1024 * 1024, cpuMs: 5000 } },
  ),
  renders(
    'MEM-06',
    'MEM',
    'deep structures stop at a depth limit instead of exhausting the stack',
    `{assign var=j value='${'['.repeat(100_000)}${']'.repeat(100_000)}'|json_decode}{if $j === null}depth{/if}`,
    'depth',
  ),
  refusesAll(
    'MEM-08',
    'MEM',
    'set_memory accepts only 256M, 512M and 768M',
    [
      '{set_memory memory_limit="4096M"}',
      '{set_memory memory_limit="768m"}',
      '{set_memory memory_limit="768M "}',
      '{set_memory memory_limit=768}',
      '{set_memory memory_limit=$x}',
    ],
    ['E_MEMORY_CLASS'],
  ),
  {
    id: 'MEM-11',
    category: 'MEM',
    title: 'after a memory kill the tenant renders again in a fresh isolate',
    async run(h) {
      const e = h.engine({ cpuMs: 20_000, wallMs: 30_000 });
      const a = await h.render(BOMB, { engine: e });
      const b = await h.render('{$x}', { engine: e, vars: { x: 'alive' } });
      return judge(h, b, a.code === 'E_MEMORY_LIMIT' && b.output === 'alive', 'killed, then rendered in a new isolate');
    },
  },
];
