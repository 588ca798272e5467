/**
 * `node --no-node-snapshot --import tsx bench/serve/news-slice.ts SITE_DIR [--source FILE] [--n N] [--rounds R]`:
 * the lever of D268 alone, in one process and one build: the `news` function (or the template
 * FILE) rendered with `workers: 0` over the site's SQLite adapters with their now faces (its
 * renders may take the synchronous slice) and without them (every render async), in alternating
 * rounds. CPU µs per render (median of the rounds, with min-max), how many host calls each engine
 * answered at once, and how many renders ended in the slice (none of their host calls seen on the
 * host-call channel's async path, which a call answered at once never takes).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { tracingChannel } from 'node:diagnostics_channel';
import { createEngine, HOST_CALL_CHANNEL, type HostAdapters } from '../../src/index.js';
import { openSite } from '../../src/site/open-site.js';

const argv = process.argv.slice(2);
const opt = (name: string, dflt: number) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? Number(argv[i + 1]) : dflt;
};
const N = opt('n', 300);
const ROUNDS = opt('rounds', 7);
const site = await openSite(argv[0]!);
const sourceAt = argv.indexOf('--source');
const sourceFile = sourceAt >= 0 ? argv[sourceAt + 1]! : path.join(argv[0]!, 'functions', 'news.tpl');
const source = readFileSync(sourceFile, 'utf8');

/** The site's adapters with their now faces counting the calls answered at once, or without them. */
function counted(host: HostAdapters, withNow: boolean, served: { now: number }): HostAdapters {
  const out: Record<string, unknown> = {};
  for (const [name, adapter] of Object.entries(host)) {
    const now = (adapter as { now?: Record<string, (...a: unknown[]) => unknown> } | undefined)?.now;
    if (!now) {
      out[name] = adapter;
      continue;
    }
    const { now: _, ...later } = adapter as Record<string, unknown>;
    out[name] = withNow
      ? {
          ...later,
          now: Object.fromEntries(
            Object.entries(now).map(([k, f]) => [k, (...a: unknown[]) => (served.now++, f(...a))]),
          ),
        }
      : later;
  }
  return out as HostAdapters;
}

const variants = [true, false].map((withNow) => {
  const served = { now: 0 };
  const engine = createEngine({
    ...site.engineOptions(),
    host: counted(site.host, withNow, served),
    workers: 0,
  });
  return {
    name: withNow ? 'now face (slice)' : 'no now face (async)',
    engine,
    served,
    asyncRenders: 0,
    cpu: [] as number[],
  };
});
const identity = site.identity({ memberId: null });
/** Host calls answered on the async path (only a traced promise has an asyncEnd), for the variant rendering now. */
let asyncCalls = 0;
const none = () => {};
tracingChannel(HOST_CALL_CHANNEL).subscribe({
  start: none,
  end: none,
  asyncStart: none,
  asyncEnd: () => void asyncCalls++,
  error: none,
});
const render = async (v: (typeof variants)[number]) => {
  asyncCalls = 0;
  const r = await v.engine.render(source, {
    name: path.basename(sourceFile),
    identity,
    request: { get: {}, server: {} },
    returnJson: true,
  });
  if (asyncCalls > 0) v.asyncRenders++;
  return r;
};

for (const v of variants) for (let i = 0; i < 200; i++) await render(v);
for (let r = 0; r < ROUNDS; r++) {
  for (const v of variants) {
    const t = process.cpuUsage();
    for (let i = 0; i < N; i++) await render(v);
    const u = process.cpuUsage(t);
    v.cpu.push((u.user + u.system) / N);
  }
}
const before = variants[1]!.cpu.slice().sort((a, b) => a - b);
for (const v of variants) {
  const s = v.cpu.slice().sort((a, b) => a - b);
  const total = 200 + ROUNDS * N;
  console.log(
    `${v.name.padEnd(22)} ${s[s.length >> 1]!.toFixed(0)} µs CPU per render (${s[0]!.toFixed(0)}-${s[s.length - 1]!.toFixed(0)}); of ${total} renders ${total - v.asyncRenders} ended in the slice (${v.served.now} calls answered at once)`,
  );
}
const ratios = variants[0]!.cpu.map((c, i) => c / variants[1]!.cpu[i]!).sort((a, b) => a - b);
console.log(
  `ratio slice / async per round: median ${ratios[ratios.length >> 1]!.toFixed(2)} (${ratios[0]!.toFixed(2)}-${ratios[ratios.length - 1]!.toFixed(2)}); async median ${before[before.length >> 1]!.toFixed(0)} µs`,
);
await Promise.all(variants.map((v) => v.engine.close()));
await site.close();
