/**
 * `node --import tsx bench/serve/probe.ts SITE_DIR [--ms N] [--concurrency C] [--path P] [serve options...]`:
 * CPU per request of one `serve --site` under load, split by process (the server, its sandbox
 * workers), to find where a serve request's time goes (bench/README.md, "Serve"). Not a row of
 * the benchmark: a tool for one variant at a time.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { startServe } from './processes.js';

const argv = process.argv.slice(2);
const take = (name: string, dflt: string) => {
  const i = argv.indexOf(`--${name}`);
  if (i < 0) return dflt;
  const v = argv[i + 1]!;
  argv.splice(i, 2);
  return v;
};
const ms = Number(take('ms', '4000'));
const concurrency = Number(take('concurrency', '8'));
const urlPath = take('path', '/rcms-api/1/news');
const [site, ...serveArgs] = argv;

const cpu = (pid: number) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
};
const children = (pid: number): number[] =>
  readdirSync('/proc')
    .filter((n) => /^\d+$/.test(n))
    .filter((n) => {
      try {
        return Number(readFileSync(`/proc/${n}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]) === pid;
      } catch {
        return false;
      }
    })
    .map(Number);

const served = await startServe(['--site', site!, ...serveArgs]);
const get = async (u: string) => {
  const r = await fetch(u);
  await r.arrayBuffer();
  return r.status;
};
try {
  for (let i = 0; i < 300; i++) await get(served.url + urlPath);
  const server = served.proc.pid!;
  const workers = children(server);
  const before = [server, ...workers].map(cpu);
  let n = 0;
  let bad = 0;
  const until = performance.now() + ms;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < until) {
        if ((await get(served.url + urlPath)) === 200) n++;
        else bad++;
      }
    }),
  );
  const wall = (performance.now() - t0) / 1000;
  const used = [server, ...workers].map((p, i) => cpu(p) - before[i]!);
  const perReq = (s: number) => `${((s * 1000) / n).toFixed(3)} ms`;
  console.log(
    `${serveArgs.join(' ') || '(defaults)'}: ${n} requests${bad ? ` (${bad} not 200)` : ''}, ${(n / wall).toFixed(0)} req/s; CPU per request: server ${perReq(used[0]!)}, workers ${perReq(used.slice(1).reduce((a, b) => a + b, 0))} (${workers.length}), total ${perReq(used.reduce((a, b) => a + b, 0))}`,
  );
} finally {
  await served.stop();
}
