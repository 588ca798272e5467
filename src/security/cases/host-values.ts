/**
 * The second attacks round's cases on values the host makes for a template (docs/security.md
 * MEM-14, MEM-16, MEM-17): files parsed on the host, remote JSON, and many tenants at the bound
 * of a host call at once. The host's work is sized by what it reads, not
 * by what the template sends, so the bounds of a host call (D320, D321) do not hold it.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { TenantFiles } from '../../host-adapters/files/tenant-files.js';
import { withAdapters } from '../../host-api/resolve.js';
import { MAX_FILE_VALUES } from '../../host-plugins/files/read_file.js';
import { createEngine } from '../../engine.js';
import type { HarnessContext, Outcome, SecurityCase } from '../types.js';
import { judge } from './helpers.js';
import { harnessHttp } from '../host/http.js';

/** A site's file limits (src/site/adapters/storage.ts): 64 MB may be read at once, not the harness's 256 KB. */
const SITE_READ_BYTES = 64 << 20;

/** Files made only of separators: each byte is a value for the host to make. */
function separatorFiles(root: string): { path: string; type: string; label: string }[] {
  const mb = 8 << 20;
  const files = [
    { name: 'commas.csv', text: ','.repeat(mb), type: 'csv', label: 'one CSV record of 8 M empty fields' },
    {
      name: 'rows.csv',
      text: `${','.repeat(80)}\n`.repeat(100_000),
      type: 'csv',
      label: '100,000 CSV records of 81 fields',
    },
    { name: 'zeros.jsonl', text: `[${'0,'.repeat(mb / 2 - 1)}0]`, type: 'jsonl', label: 'a JSON line of 4 M zeros' },
    {
      name: 'nested.jsonl',
      text: `${'[[[[[[[[[[]]]]]]]]]],'.repeat(20).replace(/^/, '[').replace(/,$/, ']')}\n`.repeat(40_000),
      type: 'jsonl',
      label: '40,000 JSON lines of 200 nested arrays',
    },
  ];
  mkdirSync(join(root, 'user'), { recursive: true });
  for (const f of files) writeFileSync(join(root, 'user', f.name), f.text);
  return files.map((f) => ({ path: `/files/user/${f.name}`, type: f.type, label: f.label }));
}

/** {read_file type=csv|jsonl} of files a site may hold: the host's values are capped before it makes them all. */
async function parsedFiles(h: HarnessContext): Promise<Outcome> {
  const root = mkdtempSync(join(tmpdir(), 'mem14-'));
  const files = new TenantFiles({ rootDir: root, quotaBytes: 1 << 30, maxReadBytes: SITE_READ_BYTES, maxEntries: 100 });
  // A wall limit far above the work: the figures, not a race with the machine's load, tell its cost.
  const engine = createEngine({
    host: withAdapters(h.host, { files }),
    limits: { wallMs: 60_000, cpuMs: 10_000 },
    timezone: 'Asia/Tokyo',
  });
  try {
    const list = separatorFiles(root);
    // The first render starts the worker and the isolate: not part of the work under test.
    await engine.render('{$x}', { vars: { x: 1 } }).catch(() => undefined);
    const figures: Record<string, number> = {};
    for (const [i, f] of list.entries()) {
      const lag = monitorEventLoopDelay({ resolution: 5 });
      lag.enable();
      const t0 = performance.now();
      const a = await h.render(`{read_file path=$p type=$t row=r}{/read_file}ok`, {
        engine,
        vars: { p: f.path, t: f.type },
      });
      const ms = performance.now() - t0;
      lag.disable();
      figures[`file${i + 1}_ms`] = Math.round(ms);
      figures[`file${i + 1}_lag_max_ms`] = Math.round(lag.max / 1e6);
      const o = judge(h, a, a.code === 'E_SIZE_LIMIT', `${f.label}: E_SIZE_LIMIT at ${MAX_FILE_VALUES} values`);
      if (o.status !== 'contained') return { ...o, detail: `${o.detail} (${Math.round(ms)} ms)` };
    }
    // A big file a site may hold, under the bound, still reads whole.
    writeFileSync(join(root, 'user', 'big.csv'), 'a,b,c,d,e,f,g,h,i\n'.repeat(90_000));
    const t0 = performance.now();
    const big = await h.render('{read_file path="/files/user/big.csv" type="csv" row=r}{/read_file}{$r.8}', { engine });
    figures.under_bound_ms = Math.round(performance.now() - t0);
    if (big.output !== 'i') return judge(h, big, false, '90,000 records of 9 fields (900,000 values) read whole');
    return {
      status: 'contained',
      detail: `4 files of separators refused with E_SIZE_LIMIT before the host made more than ${MAX_FILE_VALUES} values (${list.map((_, i) => `${figures[`file${i + 1}_ms`]} ms`).join(', ')}; the embedder's longest event-loop delays ${list.map((_, i) => figures[`file${i + 1}_lag_max_ms`]).join(', ')} ms); 900,000 values under the bound read in ${figures.under_bound_ms} ms`,
      figures,
    };
  } finally {
    await engine.close();
    rmSync(root, { recursive: true, force: true });
  }
}

export const MEM_VALUES: SecurityCase[] = [
  {
    id: 'MEM-14',
    category: 'MEM',
    title: '{read_file} of CSV and JSON lines made of separators: the values the host makes are capped',
    run: parsedFiles,
  },
  {
    id: 'MEM-16',
    category: 'MEM',
    title: '{api json_var=} of answers up to the response cap made of cheap values: zeros, nested arrays, keys',
    run: remoteValues,
  },
  {
    id: 'MEM-17',
    category: 'MEM',
    title: 'six tenants sending host calls of 80,000 values in loops at once, beside a victim',
    run: manyAtTheBound,
  },
];

/** {api json_var=} of answers up to the response cap made of cheap values: bounded before the host decodes them. */
async function remoteValues(h: HarnessContext): Promise<Outcome> {
  const s = harnessHttp();
  const url = (shape: string, n: number) => `http://api.example.com:${s.port}/values?shape=${shape}&n=${n}`;
  const engine = h.engine({ wallMs: 30_000 });
  await h.render('{api endpoint=$u status_var=q}', { engine, vars: { u: url('zeros', 1) } });
  const lag = monitorEventLoopDelay({ resolution: 5 });
  lag.enable();
  const t0 = performance.now();
  const forms: [string, number, string][] = [
    ['zeros', 4_000_000, '4 M zeros (8 MB)'],
    ['nested', 1_000_000, '100,000 arrays nested ten deep'],
    ['keys', 300_000, 'an object of 300,000 keys'],
  ];
  for (const [shape, n, what] of forms) {
    const a = await h.render('{api endpoint=$u json_var=j}{$j|@count}', { engine, vars: { u: url(shape, n) } });
    const o = judge(h, a, a.code === 'E_SIZE_LIMIT', `${what}: E_SIZE_LIMIT before decoding`);
    if (o.status !== 'contained') return o;
  }
  // The same refused answer in a loop: each is refused before decoding; the request budget ends the render.
  const loop = await h.render('{section name=i loop=1000}{api endpoint=$u json_var=j}{/section}', {
    engine,
    vars: { u: url('zeros', 200_000) },
  });
  if (loop.code !== 'E_SIZE_LIMIT') return judge(h, loop, false, 'a refused answer ends the render E_SIZE_LIMIT');
  const ms = performance.now() - t0;
  lag.disable();
  const under = await h.render('{api endpoint=$u json_var=j}{$j|@count}', {
    engine,
    vars: { u: url('zeros', 99_990) },
  });
  if (under.output !== '99990') return judge(h, under, false, '99,990 values under the bound decode');
  return {
    status: 'contained',
    detail: `3 answers of up to 8 MB refused E_SIZE_LIMIT before decoding in ${Math.round(ms)} ms in all (the embedder's longest event-loop delay ${Math.round(lag.max / 1e6)} ms); 99,990 values decode`,
    figures: { ms: Math.round(ms), lag_max_ms: Math.round(lag.max / 1e6) },
  };
}

/** Tenants that send host calls at the bound of values (D321) at once, in loops: the embedder's thread and a victim. */
async function manyAtTheBound(h: HarnessContext): Promise<Outcome> {
  const attackers = 6;
  // 80,000 empty strings and their list: near the 100,000 values a call may carry, and a value the
  // request's 1 MB of globals holds, so every call of the loop reaches the host and is stored.
  const vars = { s: ','.repeat(79_999) };
  const attack =
    '{assign var=a value=","|explode:$s}{section name=i loop=1000}{assign_globals key="k" value=$a}{/section}';
  const e = h.engine({ wallMs: 3000 });
  const victim = '{section name=i loop=50}{$i}{/section}';
  await h.render(victim, { engine: e, identity: { tenant: 'mem17-victim' } });
  const lag = monitorEventLoopDelay({ resolution: 5 });
  lag.enable();
  const until = Date.now() + 3000;
  const victimMs: number[] = [];
  const failures: string[] = [];
  const victims = (async () => {
    while (Date.now() < until) {
      const a = await h.render(victim, { engine: e, identity: { tenant: 'mem17-victim' } });
      if (a.output === undefined) failures.push(`${a.code}: ${a.message}`);
      victimMs.push(a.ms);
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  const attacks = await Promise.all(
    Array.from({ length: attackers }, (_, i) =>
      h.render(attack, { engine: e, identity: { tenant: `mem17-${i}` }, vars }),
    ),
  );
  await victims;
  lag.disable();
  const odd = attacks.find((a) => !['E_WALL_TIMEOUT', 'E_CPU_TIMEOUT', 'E_BRIDGE_QUOTA'].includes(a.code ?? ''));
  if (odd) return judge(h, odd, false, 'each attacker ends at its wall clock, its CPU limit or the host-call quota');
  if (failures.length) return { status: 'escaped', detail: `the victim failed: ${failures[0]}` };
  victimMs.sort((x, y) => x - y);
  const p99 = victimMs[Math.min(victimMs.length - 1, Math.floor(victimMs.length * 0.99))] ?? 0;
  const figures = {
    victim_renders: victimMs.length,
    victim_p99_ms: Math.round(p99),
    lag_p99_ms: Math.round(lag.percentile(99) / 1e6),
    lag_max_ms: Math.round(lag.max / 1e6),
  };
  return {
    status: 'contained',
    detail: `${attackers} tenants sending 80,000-value calls in loops ended ${[...new Set(attacks.map((a) => a.code))].join(', ')}; the victim rendered ${figures.victim_renders} times, p99 ${figures.victim_p99_ms} ms; the embedder's event-loop delay p99 ${figures.lag_p99_ms} ms, max ${figures.lag_max_ms} ms`,
    figures,
  };
}
