/** B10. OPS: host process, concurrency, data integrity. */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { renderRawJsForHarness } from '../../engine-internal.js';
import type { SecurityCase } from '../types.js';
import { breach, judge } from './helpers.js';
import { sourceOf, sourcesUnder } from './source.js';
import { repeatedLimit } from './timing.js';
import { withAdapters } from '../../host-api/resolve.js';
import type { ContentAdapter } from '../../host-api/adapters/content.js';

function staticCheck(id: string, title: string, module: string, forbidden: RegExp, ok: string): SecurityCase {
  return {
    id,
    category: 'OPS',
    title,
    async run() {
      return forbidden.test(sourceOf(module))
        ? { status: 'escaped', detail: `${module} matches ${forbidden}` }
        : { status: 'contained', detail: ok };
    },
  };
}

/** The CPU limit of the endless template of OPS-04: what an unbounded synchronous call would hold the event loop for. */
const ENDLESS_CPU_MS = 1500;

/** The event loop's worst gap while an endless host-free template renders in this process with the largest slice. */
async function endlessTemplateLag(): Promise<{ code: string; worstMs: number }> {
  const { createEngine } = await import('../../engine.js');
  const e = createEngine({ workers: 0, timeoutMs: ENDLESS_CPU_MS, limits: { syncSliceMs: 20 } });
  try {
    const src = '{if $go}{section name=i loop=2000000000}{section name=j loop=1000}{/section}{/section}{/if}calm';
    await e.render(src, { vars: { go: false } });
    let worstMs = 0;
    let last = performance.now();
    const tick = setInterval(() => {
      const now = performance.now();
      worstMs = Math.max(worstMs, now - last);
      last = now;
    }, 5);
    const code = await e.render(src, { vars: { go: true } }).then(
      () => 'rendered',
      (err: { code?: string }) => err.code ?? 'error',
    );
    clearInterval(tick);
    return { code, worstMs };
  } finally {
    await e.close();
  }
}

export const OPS: SecurityCase[] = [
  {
    id: 'OPS-01',
    category: 'OPS',
    title:
      'without --no-node-snapshot the sandbox refuses to start and names the flag (worker processes always get it)',
    async run() {
      const engine = fileURLToPath(
        new URL(`../../engine${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url),
      );
      const loader = import.meta.url.endsWith('.ts') ? ['--import', 'tsx'] : [];
      const r = spawnSync(
        process.execPath,
        [
          ...loader,
          '-e',
          `import(${JSON.stringify(engine)}).then(async (m) => { const e = m.createEngine({ workers: 0 }); try { await e.render('x'); console.log('rendered'); } finally { e.close(); } }).catch((e) => { console.error(e.message); process.exit(3); })`,
        ],
        {
          encoding: 'utf8',
          env: { ...process.env, NODE_OPTIONS: '' },
          timeout: 30_000,
        },
      );
      return r.status === 3 && /--no-node-snapshot/.test(r.stderr)
        ? { status: 'contained', detail: 'refused, naming --no-node-snapshot' }
        : { status: 'escaped', detail: `exit ${r.status}: ${(r.stdout + r.stderr).slice(0, 200)}` };
    },
  },
  {
    id: 'OPS-02',
    category: 'OPS',
    title: 'a V8 fatal out-of-memory kills only one sandbox worker; other tenants keep rendering',
    async run(h) {
      // Budgets far past the bomb's own time: at the memory limit in ~8-14 s on a 2-core machine at
      // load 4 (V8 fills a dictionary of 60 M entries), it ran past a 20 s wall at load 14.
      const e = h.engine({ cpuMs: 90_000, wallMs: 120_000 });
      await e.render('{$x}', { vars: { x: 1 }, identity: { tenant: 'bystander' } });
      const before = e.pids();
      // V8 aborts the whole process on this allocation (isolated-vm #107); here it may only take a worker.
      const crash = await renderRawJsForHarness(e, 'const a = new Array(60_000_000).fill(); return String(a.length);', {
        identity: { tenant: 'bomber' },
      }).then(
        (r) => `rendered ${r.output}`,
        (err: { code?: string }) => err.code ?? 'error',
      );
      const t0 = performance.now();
      const after = await e.render('{$x}', { vars: { x: 'alive' }, identity: { tenant: 'bystander' } });
      const again = await e.render('{$x}', { vars: { x: 'back' }, identity: { tenant: 'bomber' } }).then(
        (r) => r.output,
        () => 'failed',
      );
      const restartMs = performance.now() - t0;
      const ok =
        ['E_SANDBOX_CRASHED', 'E_MEMORY_LIMIT', 'E_SIZE_LIMIT'].includes(crash) &&
        after.output === 'alive' &&
        again === 'back';
      return {
        status: ok ? 'contained' : 'escaped',
        detail: `bomb: ${crash}; workers ${before.join(',')} -> ${e.pids().join(',')}; bystander and bomber render again (${restartMs.toFixed(0)} ms)`,
        figures: { restart_ms: restartMs, workers_replaced: before.filter((p) => !e.pids().includes(p)).length },
      };
    },
  },
  {
    id: 'OPS-04',
    category: 'OPS',
    title:
      "a synchronous isolated-vm call runs template code in the embedding process only within a bounded slice: the worker's whole-render call is imported by the worker entry alone, and an endless template holds the event loop far less than its CPU limit",
    async run() {
      if (/\b(runSync|evalSync|applySync|evalClosureSync|applySyncPromise)\b/.test(sourceOf('sandbox/isolate-host')))
        return { status: 'escaped', detail: 'sandbox/isolate-host makes a synchronous call' };
      const importersOf = (module: string) =>
        sourcesUnder('.')
          // A type-only import brings no code.
          .filter(([, text]) =>
            new RegExp(`^import (?!type )[^;]*from '[./]*(sandbox/)?${module}\\.js'`, 'm').test(text),
          )
          .map(([file]) => file.replace(/\.(ts|js)$/, ''));
      const sync = importersOf('sync-render');
      const entry = importersOf('worker-main');
      if (!(sync.length === 1 && sync[0] === 'sandbox/worker-main' && entry.length === 0)) {
        return {
          status: 'escaped',
          detail: `sync-render imported by ${sync.join(', ') || 'nothing'}; worker-main by ${entry.join(', ') || 'nothing'}`,
        };
      }
      // The slice (src/sandbox/sync-slice.ts, decisions.md D140): its timeout is clamped to at most 20 ms.
      const slice = sourceOf('sandbox/sync-slice');
      const max = /(?:export )?const MAX_SLICE_MS = (\d+);/.exec(slice);
      if (
        !max ||
        Number(max[1]) > 20 ||
        !/function sliceTimeoutMs\(sliceMs: number\): number \{\s*return Math\.max\(1, Math\.min\(Math\.floor\(sliceMs\), MAX_SLICE_MS\)\);/.test(
          slice,
        ) ||
        !/const timeout = sliceTimeoutMs\(sliceMs\);/.test(slice) ||
        (slice.match(/applySync\(/g) ?? []).length !== 1 ||
        !/\{\s*timeout,\s*result/.test(slice)
      ) {
        return {
          status: 'escaped',
          detail: 'sandbox/sync-slice makes a synchronous call whose timeout is not the clamped slice',
        };
      }
      const lag = await endlessTemplateLag();
      return lag.code === 'E_CPU_TIMEOUT' && lag.worstMs < ENDLESS_CPU_MS / 3
        ? {
            status: 'contained',
            detail: `worker-main alone imports sync-render; the slice is clamped to ${max[1]} ms; an endless template held the event loop at most ${lag.worstMs.toFixed(0)} ms of its ${ENDLESS_CPU_MS} ms CPU limit`,
            figures: { endless_lag_max_ms: lag.worstMs },
          }
        : {
            status: 'escaped',
            detail: `an endless template in the embedding process: ${lag.code}, event loop held up to ${lag.worstMs.toFixed(0)} ms`,
          };
    },
  },
  {
    id: 'OPS-05',
    category: 'OPS',
    title:
      'a render that may call the host starts with the async API unless every call it can make is a read answered at once, and the host answers a call made at once only inside a slice it opened (D268)',
    async run() {
      const host = sourceOf('sandbox/isolate-host');
      const bridge = sourceOf('bridge/bridge');
      // Whitespace-tolerant: Prettier lays the conditions out over several lines (D162).
      const problems = [
        // No synchronous call of the isolate here but the slice's (OPS-04 checks sync-slice.ts).
        [/\.runSync\(|\.applySync\(/.test(host), 'isolate-host makes a synchronous call of its own'],
        // The worker's synchronous render: host-free templates only (their calls would cross to another process).
        [
          /sync = syncRender !== null(?!\s*&&\s*t\.hostFree === true)/.test(host),
          "the worker's sync render is not for host-free templates only",
        ],
        // The slice: a host-free template, or one whose calls the bridge answers at once (`now`).
        [
          (host.match(/renderInSlice\(/g) ?? []).length !== 1 ||
            !/if \(\s*syncRender === null\s*&&\s*\(t\.hostFree === true \|\| now !== null\)\s*&&\s*!defining[^{]*\{\s*const hostNow = t\.hostFree !== true && now !== null;[^}]*?this\.activeNow = hostNow \? now : null;[^}]*?renderInSlice\(\s*live\.render,\s*t\.id,\s*requestArg\(s\),\s*limits\.syncSliceMs,\s*hostNow,\s*t0,(?:\s*this\.watched \?\? null,?)?\s*\);\s*\} finally \{\s*this\.activeNow = null;\s*this\.sliceEnds = 0;/.test(
              host,
            ),
          'the slice is not guarded by hostFree or the calls answered at once, or its host function stays open after it',
        ],
        // The host function of the slice answers only inside one, before its end.
        [
          (host.match(/this\.activeNow = /g) ?? []).length !== 2 ||
            !/const hostCallNow = \(plugin: string, req: string\): string => \{\s*const now = this\.activeNow;\s*if \(!now\) return NOT_IN_SLICE;\s*if \(performance\.now\(\) >= this\.sliceEnds\) return SLICE_OVER;/.test(
              host,
            ),
          'the host function of the slice answers outside a slice or past its end',
        ],
        // The bridge answers at once through a read plugin's runNow alone, and offers it only when every name has one.
        [
          !/if \(now\) \{\s*const runNowOf = impl\.runNow;\s*if \(!runNowOf\) throw notNow\(/.test(bridge) ||
            !/if \(!impl\?\.runNow \|\| !decl\?\.host \|\| Object\.hasOwn\(plugins\.modifiers, name\)\) return null;/.test(
              bridge,
            ) ||
            !/if \(now\) throw notNow\(`\$\{label\} is not a read that answers at once`\);/.test(bridge),
          'the bridge may answer at once a call that is not a read plugin with runNow',
        ],
      ] as const;
      const failed = problems.filter(([bad]) => bad).map(([, what]) => what);
      return failed.length > 0
        ? { status: 'escaped', detail: failed.join('; ') }
        : {
            status: 'contained',
            detail:
              "the render call is apply(), asynchronous, unless the template calls no host plugin or only reads the bridge answers at once; the slice's host function answers only inside the slice",
          };
    },
  },
  {
    id: 'OPS-17',
    category: 'OPS',
    title:
      'a template that may call a host plugin with effects (a counter write) never takes the synchronous slice, though its reads could be answered at once (D268)',
    async run() {
      const { createEngine } = await import('../../engine.js');
      const { watchAsyncHostCalls } = await import('../async-host-calls.js');
      // A content adapter whose reads also answer at once.
      const content: ContentAdapter = {
        group: async () => null,
        groupTopics: async () => [],
        topics: async () => [],
        findTopicId: async () => null,
        columns: async () => [],
        categories: async () => [],
        addToCounter: async () => 1,
        setCounter: async () => 1,
        syncCounters: async () => 0,
        now: {
          group: () => null,
          groupTopics: () => [],
          topics: () => [],
          findTopicId: () => null,
          columns: () => [],
          categories: () => [],
        },
      };
      const e = createEngine({ workers: 0, host: { content }, limits: { syncSliceMs: 20 } });
      const read = '{api_method var=r model="TopicsCategory" method="list" method_params=$m}{$r.list|@count}';
      // The write is never reached; that the template can reach it is what keeps it off the slice.
      const write = `${read}{if $w}{increment_counter var=v value=1 topics_group_id=1 slug="x" ext_slug="c"}{/if}`;
      // A render in the slice answers its call there; one off it, on the async path (D362).
      const calls = watchAsyncHostCalls();
      const renders = async (source: string) => {
        calls.reset();
        for (let i = 0; i < 12; i++) await e.render(source, { vars: { m: { topics_group_id: 1 }, w: false } });
        return 12 - calls.count;
      };
      try {
        const reads = await renders(read);
        const writes = await renders(write);
        const ok = reads > 0 && writes === 0;
        return {
          status: ok ? 'contained' : 'escaped',
          detail: `reads only: ${reads} of 12 renders answered their call in the slice; with a reachable write: ${writes}`,
        };
      } finally {
        calls.stop();
        await e.close();
      }
    },
  },
  {
    id: 'OPS-06',
    category: 'OPS',
    title: 'a host adapter that throws before its first await gives a coded error, no unhandled rejection',
    async run(h) {
      const { createEngine } = await import('../../engine.js');
      let unhandled = 0;
      const onRejection = () => unhandled++;
      process.on('unhandledRejection', onRejection);
      const e = createEngine({
        host: {
          secrets: {
            get: (() => {
              throw new Error('adapter exploded at /srv/secret/path');
            }) as never,
          },
        },
      });
      try {
        const a = await h.render('{secret var=s key="K"}', { engine: e });
        await new Promise((r) => setTimeout(r, 50));
        return judge(
          h,
          a,
          a.code === 'E_HOST_FAILED' && !/srv/.test(a.message ?? '') && unhandled === 0,
          'E_HOST_FAILED, host detail withheld',
        );
      } finally {
        process.off('unhandledRejection', onRejection);
        await e.close();
      }
    },
  },
  {
    id: 'OPS-12',
    category: 'OPS',
    title: "isolates are per tenant: one tenant's changes to built-ins never reach another",
    async run(h) {
      await h.rawJs('Object.prototype.polluted = "yes"; Array.prototype.push = null; return "";');
      const a = await h.render('{$x|@count}|{assign var="l." value=1}{$l|@count}', {
        vars: { x: [1, 2] },
        identity: { tenant: 'victim' },
      });
      const b = await h.rawJs('return String(({}).polluted);');
      return judge(
        h,
        a,
        a.output === '2|1' && b.output === 'undefined',
        'another tenant and the next render are unaffected',
      );
    },
  },
  {
    id: 'OPS-07',
    category: 'OPS',
    title: 'the deadline passes while a host call is pending: the render ends, nothing deadlocks',
    async run(h) {
      const { createEngine } = await import('../../engine.js');
      // A host adapter that answers only when the case ends: the watchdog must end each render at its 300 ms deadline.
      const pending: (() => void)[] = [];
      const slow = () => new Promise<{ value: string }>((resolve) => pending.push(() => resolve({ value: 'late' })));
      const e = createEngine({
        host: withAdapters(h.host, { secrets: { get: slow } }),
        limits: { wallMs: 300, cpuMs: 1000 },
        timezone: 'Asia/Tokyo',
      });
      try {
        await e.render('{$x}', { vars: { x: 1 } });
        const g4 = await repeatedLimit(
          h,
          'E_WALL_TIMEOUT',
          300,
          () => h.render('{secret var=s key="API_TOKEN"}{$s}', { engine: e }),
          (a) => a.code === 'E_WALL_TIMEOUT',
        );
        const b = await h.render('{$x}', { engine: e, vars: { x: 'next' } });
        if (g4.status !== 'contained') return g4;
        return { ...judge(h, b, b.output === 'next', `${g4.detail}; the next render works`), figures: g4.figures };
      } finally {
        pending.splice(0).forEach((r) => r());
        await new Promise((r) => setTimeout(r, 50));
        await e.close();
      }
    },
  },
  {
    id: 'OPS-08',
    category: 'OPS',
    title: 'shutdown under load: close() with renders looping lets the process exit cleanly',
    async run() {
      const ts = import.meta.url.endsWith('.ts');
      const engine = fileURLToPath(new URL(`../../engine${ts ? '.ts' : '.js'}`, import.meta.url));
      const script = `import(${JSON.stringify(engine)}).then(async (m) => {
        const e = m.createEngine({ workers: 2, limits: { cpuMs: 60000, wallMs: 60000 } });
        for (let i = 0; i < 10; i++) e.render('{section name=i loop=2000000000}{/section}', { identity: { tenant: 't' + i } }).catch(() => {});
        await new Promise((r) => setTimeout(r, 500));
        e.close();
      });`;
      const t0 = Date.now();
      const r = spawnSync(process.execPath, ['--no-node-snapshot', ...(ts ? ['--import', 'tsx'] : []), '-e', script], {
        encoding: 'utf8',
        timeout: 15_000,
      });
      const took = Date.now() - t0;
      return r.status === 0
        ? { status: 'contained', detail: `exited 0 after ${took} ms`, figures: { ms: took } }
        : {
            status: 'escaped',
            detail: `exit ${r.status} (${r.signal ?? ''}) after ${took} ms: ${(r.stderr ?? '').slice(0, 200)}`,
          };
    },
  },
  staticCheck(
    'OPS-14',
    'the inspector is never enabled',
    'sandbox/isolate-host',
    /inspector\s*:\s*true/,
    'no inspector option',
  ),
  {
    id: 'OPS-15',
    category: 'OPS',
    title: 'log injection: control characters are escaped, messages capped at 1 KB',
    async run(h) {
      const e = h.engine();
      const r = await e.render('{logger msg1=$m msg2=$big}', {
        vars: { m: 'a\r\nFAKE LINE: ok\u001b[31m', big: 'x'.repeat(5000) },
      });
      const [first, second] = r.logs.map((l) => l.message);
      const ok =
        first === 'a\\r\\nFAKE LINE: ok\\x1b[31m' && second.length < 1100 && second.endsWith('...Over 1kb data.');
      return ok
        ? { status: 'contained', detail: 'escaped and capped' }
        : { status: 'escaped', detail: JSON.stringify(r.logs).slice(0, 200) };
    },
  },
  breach(
    'OPS-16',
    'OPS',
    'no high-resolution timer inside the isolate',
    'return typeof performance + "," + typeof process;',
    (a) => a.output === 'undefined,undefined',
    'performance and process are absent; time comes from the host',
  ),
];
