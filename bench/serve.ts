/**
 * `npm run bench:serve -- [memory N,N...] [thousand] [rps] [flood]`: the serve-level rows of
 * issue 31, against real `smartcage serve --sites` processes (bench/README.md, "Serve").
 *
 * - memory N,...: RSS of the whole process tree with N sites, each used once (GET its
 *   /rcms-api/1/news), right after and once idle (`--idle S`, default 15 s);
 * - thousand: 1,000 sites of which 50 are hot (each of the 50 used again and again), RSS of the tree;
 * - rps: requests per second per core of the sample site's `news` endpoint through serve, beside
 *   a plain node:http server with Eta running the same SQLite query and page (bench/serve/plain.ts);
 * - flood: one tenant floods with slow requests while another's are timed (p50/p99).
 *
 * Sites are made under test-artifacts/serve-bench/ once and kept (bench/serve/sites.ts).
 */
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { makeSites } from './serve/sites.js';
import { startServe, treeRssMB } from './serve/processes.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const WORK = path.join(ROOT, 'test-artifacts', 'serve-bench');
const argv = process.argv.slice(2);
const opt = (name: string, dflt: number) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? Number(argv[i + 1]) : dflt;
};
const IDLE_S = opt('idle', 15);
const log = (line: string) => process.stdout.write(`${line}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function get(url: string): Promise<number> {
  const r = await fetch(url);
  await r.arrayBuffer();
  return r.status;
}

/** Every site of `keys` asked once, `concurrency` at a time; the statuses that were not 200. */
async function useOnce(base: string, keys: readonly string[], concurrency = 4): Promise<number[]> {
  const bad: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < keys.length) {
        const key = keys[next++]!;
        const s = await get(`${base}/sites/${key}/rcms-api/1/news`);
        if (s !== 200) bad.push(s);
      }
    }),
  );
  return bad;
}

async function memory(counts: number[]): Promise<void> {
  for (const n of counts) {
    const dir = path.join(WORK, `sites-${n}`);
    const keys = makeSites(dir, n);
    const served = await startServe(['--sites', dir, ...serveArgs()]);
    try {
      const start = treeRssMB(served.proc.pid!);
      const bad = await useOnce(served.url, keys);
      const used = treeRssMB(served.proc.pid!);
      await sleep(IDLE_S * 1000);
      const idle = treeRssMB(served.proc.pid!);
      log(`memory: ${n} sites: start ${start.mb} MB, after each used once ${used.mb} MB, idle ${IDLE_S} s ${idle.mb} MB (${idle.processes} processes)${bad.length ? `; ${bad.length} requests failed (${bad[0]})` : ''}`);
    } finally {
      await served.stop();
    }
  }
}

/** Extra serve options from `--serve-args "..."`. */
function serveArgs(): string[] {
  const i = argv.indexOf('--serve-args');
  return i >= 0 ? argv[i + 1]!.split(' ').filter(Boolean) : [];
}

const i = argv.indexOf('memory');
if (i >= 0) await memory((argv[i + 1] ?? '2,10,50').split(',').map(Number));
