/** HH-02 (assign_globals), HH-04 ({return} size), HH-09 (read_dir), HH-12 (entry quota). */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RenderAttempt, SecurityCase } from '../../types.js';
import { judge } from '../helpers.js';
import { harnessTenantRoot } from '../../host/files.js';
import { TenantFiles } from '../../../host-adapters/files/tenant-files.js';
import { hostStateOf } from '../../../engine-internal.js';
import { retainedHeap } from '../../host/heap.js';

const MB = 1024 * 1024;

/** A limit error the template can see: a stable code and the line of the tag that hit it. */
const atLine = (a: RenderAttempt, codes: string[]): boolean =>
  a.code !== undefined && codes.includes(a.code) && (a.line ?? 0) > 0;

/** Host CPU (user + system) the harness process spent in `run`, in ms. */
async function hostCpu<T>(run: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const before = process.cpuUsage();
  const value = await run();
  const d = process.cpuUsage(before);
  return { value, ms: (d.user + d.system) / 1000 };
}

// HH-02: each render runs as a new request of the same tenant and keeps a value just under the
// per-request cap; past the tenant's cap the store is refused.
const GLOBALS_RENDERS = 64;
const GLOBALS_VALUE = '{assign var=v value=""|str_pad:1000000:"x"}\n{assign_globals key="k" value=$v}ok';

// HH-04: one 1 MB string referenced 1,000 times is 1 GB once copied out of the isolate.
const RETURN_REFS = 1000;
const RETURN_WIDE = `{assign var=s value=""|str_pad:${MB}:"x"}{section name=i loop=${RETURN_REFS}}{assign var="a." value=$s}{/section}\n{return value=$a}`;
const RETURN_DEEP =
  '{section name=i loop=20000}{assign var=t value=null}{assign var=t.k value=$d}{assign var=d value=$t}{/section}\n{return value=$d}';

// HH-09: a folder of many entries whose names are evil for `(a+)+$`.
const DIR_ENTRIES = 1500;

export const HH_CAPS: SecurityCase[] = [
  {
    id: 'HH-02',
    category: 'HH',
    title:
      '{assign_globals} from many requests of one tenant is refused past the tenant cap; the embedding process keeps no more than the cap (heap after a full GC)',
    async run(h) {
      const e = h.engine({ cpuMs: 5000, wallMs: 10_000 });
      const tenant = 'hh02';
      const ids: string[] = [];
      const heap0 = retainedHeap();
      const unCollected0 = process.memoryUsage().heapUsed;
      let stored = 0;
      let refused: RenderAttempt | undefined;
      let storedAfterRefusal = 0;
      try {
        for (let i = 0; i < GLOBALS_RENDERS; i++) {
          const requestId = `hh02-${i}-${Date.now()}`;
          ids.push(requestId);
          const a = await h.render(GLOBALS_VALUE, { engine: e, identity: { tenant, requestId } });
          if (a.output === 'ok') {
            stored++;
            if (refused) storedAfterRefusal++;
          } else if (!refused) {
            if (!atLine(a, ['E_QUOTA', 'E_SIZE_LIMIT']))
              return judge(h, a, false, 'past the tenant cap: E_QUOTA at the {assign_globals} line');
            refused = a;
          }
        }
        const unCollected = (process.memoryUsage().heapUsed - unCollected0) / MB;
        const heapGrowth = (retainedHeap() - heap0) / MB;
        const mb = (n: number): number => Math.round(n * 10) / 10;
        const figures = {
          stored_values: stored,
          held_mb: mb(hostStateOf(e).requestGlobals.usage(tenant) / MB),
          heap_growth_mb: mb(heapGrowth),
          heap_growth_before_gc_mb: mb(unCollected),
        };
        if (!refused)
          return {
            status: 'escaped',
            detail: `all ${GLOBALS_RENDERS} requests kept a 1 MB value (heap +${figures.heap_growth_mb} MB)`,
            figures,
          };
        if (storedAfterRefusal > 0)
          return { status: 'escaped', detail: `${storedAfterRefusal} values kept after the first refusal`, figures };
        // The tenant cap (8 MB) and the harness's own records; keeping every value would be 64 MB.
        if (heapGrowth > 16) return { status: 'escaped', detail: `heap grew by ${figures.heap_growth_mb} MB`, figures };
        return {
          status: 'contained',
          detail: `refused (${refused.code}) after ${stored} values (${figures.held_mb} MB held); heap +${figures.heap_growth_mb} MB`,
          figures,
        };
      } finally {
        for (const requestId of ids) e.endRequest({ tenant, requestId });
      }
    },
  },
  {
    id: 'HH-04',
    category: 'HH',
    title:
      '{return value=...} is capped inside the isolate: 1,000 references to a 1 MB string and a 20,000-deep value end with a limit error at the {return} line; a bystander renders',
    async run(h) {
      const e = h.engine({ cpuMs: 5000, wallMs: 10_000 });
      const rss0 = process.memoryUsage().rss;
      const bystander = h.render('{section name=i loop=50}{$i}{/section}ok', {
        engine: e,
        identity: { tenant: 'hh04-bystander' },
        vars: { i: '.' },
      });
      const wide = await h.render(RETURN_WIDE, { engine: e, identity: { tenant: 'hh04' } });
      const rssGrowth = Math.round((process.memoryUsage().rss - rss0) / MB);
      if (!atLine(wide, ['E_OUTPUT_LIMIT', 'E_SIZE_LIMIT']) || wide.line !== 2)
        return judge(h, wide, false, 'wide {return}: E_OUTPUT_LIMIT at line 2');
      const deep = await h.render(RETURN_DEEP, { engine: e, identity: { tenant: 'hh04' } });
      if (!atLine(deep, ['E_SIZE_LIMIT', 'E_OUTPUT_LIMIT']) || deep.line !== 2)
        return judge(h, deep, false, 'deep {return}: a limit error at line 2');
      const b = await bystander;
      if (b.output !== '.'.repeat(50) + 'ok') return judge(h, b, false, 'the bystander tenant renders');
      const after = await h.render('{$i}', { engine: e, identity: { tenant: 'hh04-bystander' }, vars: { i: 'alive' } });
      return judge(
        h,
        after,
        after.output === 'alive',
        `wide: ${wide.code}, deep: ${deep.code}, both at the {return} line; bystander fine (harness RSS ${rssGrowth >= 0 ? '+' : ''}${rssGrowth} MB)`,
      );
    },
  },
  {
    id: 'HH-09',
    category: 'HH',
    title:
      '{read_dir} in a loop over a big folder with an evil pattern: host CPU per render bounded, listing capped per render, the pattern runs in the isolate',
    async run(h) {
      const root = harnessTenantRoot('default');
      if (!root) return { status: 'escaped', detail: 'the harness files adapter is not active' };
      const dir = join(root, 'user', 'hh09');
      mkdirSync(dir, { recursive: true });
      for (let i = 0; i < DIR_ENTRIES; i++) writeFileSync(join(dir, `${i}-${'a'.repeat(30)}!`), '');
      const e = h.engine({ wallMs: 20_000 });
      try {
        // Many listings in one render: the per-render entry budget stops them.
        const many = await hostCpu(() =>
          h.render(
            '{section name=i loop=1000}\n{read_dir path="/files/user/hh09" name_only=true file_var=f pattern="/b$/"}{/read_dir}{/section}done',
            { engine: e },
          ),
        );
        if (!atLine(many.value, ['E_SIZE_LIMIT']))
          return judge(
            h,
            many.value,
            false,
            'listings past the per-render budget: E_SIZE_LIMIT at the {read_dir} line',
          );
        // The evil pattern costs the tenant's CPU budget in the isolate, not the host's.
        const evil = await hostCpu(() =>
          h.render(
            '{read_dir path="/files/user/hh09" name_only=true file_var=f pattern="/(a+)+$/"}{$f}{/read_dir}done',
            { engine: e },
          ),
        );
        const ok = evil.value.output === 'done' || atLine(evil.value, ['E_CPU_TIMEOUT']);
        if (!ok) return judge(h, evil.value, false, 'the evil pattern: no match, or E_CPU_TIMEOUT of the tenant');
        const figures = { host_cpu_ms_listings: Math.round(many.ms), host_cpu_ms_evil_pattern: Math.round(evil.ms) };
        // Generous: the listing budget costs some hundred ms of host CPU; unbounded, it is seconds.
        if (many.ms > 1500 || evil.ms > 1000)
          return {
            status: 'escaped',
            detail: `host CPU per render ${figures.host_cpu_ms_listings} / ${figures.host_cpu_ms_evil_pattern} ms`,
            figures,
          };
        return {
          status: 'contained',
          detail: `listings refused (${many.value.code}) after the render's budget; evil pattern: ${evil.value.code ?? 'no match'}; host CPU ${figures.host_cpu_ms_listings} / ${figures.host_cpu_ms_evil_pattern} ms`,
          figures,
        };
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  },
  {
    id: 'HH-12',
    category: 'HH',
    title:
      'a loop creating empty files in new folders is refused at the storage entry cap (E_QUOTA; the harness tenants hold 5,000 entries)',
    async run(h) {
      const tpl =
        '{section name=i loop=1000}\n{write_file path="/files/user/hh12/`$smarty.section.i.index`/a/b/c/d/e/f/g/h/i/j/k/l/m/n/o/p/q/r/s/x.txt" var=v value=""}{/section}done';
      const a = await h.render(tpl, { identity: { tenant: 'hh12' }, limits: { wallMs: 60_000 } });
      const o = judge(
        h,
        a,
        atLine(a, ['E_QUOTA']),
        'E_QUOTA at the {write_file} line once files and folders reach the entry cap',
      );
      // The entry count is a figure of the harness's own storage; another FileStore need not report one.
      const files = h.host({
        tenant: 'hh12',
        memberId: null,
        superUser: false,
        context: 'web',
        requestId: 'hh12',
      }).files;
      return files instanceof TenantFiles
        ? { ...o, figures: { ...o.figures, entries: await files.usageEntries() } }
        : o;
    },
  },
];
