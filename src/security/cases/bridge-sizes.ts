/**
 * The fourth review's attacks on what crosses the bridge for a template (docs/security.md
 * MEM-12): big strings and wide or deep arrays handed to host plugins, to the mail and HTTP
 * plugins and to the request's shared globals. Each is refused in the isolate or by the host's
 * caps with a coded error, before the host does work of that size.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { harnessHttp } from '../host/http.js';
import type { SecurityCase } from '../types.js';
import { allRefused, judge } from './helpers.js';

/** 16 million characters, built in the isolate (under its 16 MiB string cap). */
const BIG = '{assign var=s value="x"|str_pad:16000000:"y"}';
const DEEP = '[['.repeat(40) + '1' + ']]'.repeat(40);

export const MEM_MORE_BRIDGE: SecurityCase[] = [
  {
    id: 'MEM-12',
    category: 'MEM',
    title: 'big and deep values handed to host plugins: mail, HTTP, shared globals',
    async run(h) {
      const bad = await allRefused(h, [
        {
          template: `${BIG}{assign_globals key="k" value=$s}`,
          codes: ['E_BAD_ATTRIBUTE'],
          label: '16 M chars to assign_globals',
        },
        {
          template: `${BIG}{api endpoint="https://api.example.com/x" method="POST" body=$s status_var=q}`,
          codes: ['E_BAD_ATTRIBUTE'],
          label: '16 M chars as an {api} body',
        },
        {
          template: `${BIG}{sendmail to="a@example.com" subject="s" contents=$s}`,
          codes: ['E_BAD_ATTRIBUTE'],
          label: '16 M chars as a mail body',
        },
        {
          template: `${BIG}{sendmail to="a@example.com" subject=$s contents="b"}`,
          codes: ['E_BAD_ATTRIBUTE'],
          label: '16 M chars as a mail subject',
        },
        {
          template:
            '{assign var=s value="x"|str_pad:900000:"y"}{section name=i loop=1000}{assign_globals key=$smarty.section.i.index value=$s}{/section}',
          codes: ['E_QUOTA'],
          label: "the request globals' total",
        },
        {
          template: '{section name=i loop=100}{assign_globals key=$smarty.section.i.index value=$a}{/section}',
          codes: ['E_CPU_TIMEOUT', 'E_QUOTA', 'E_BAD_ATTRIBUTE'],
          opts: { vars: { a: Array.from({ length: 200_000 }, (_, i) => i) } },
          label: 'a 200,000-item array 100 times',
        },
        {
          template: '{assign_globals key="k" value=$a}',
          codes: ['E_BAD_ATTRIBUTE'],
          opts: { vars: { a: JSON.parse(DEEP) as unknown } },
          label: 'an array 80 levels deep',
        },
      ]);
      return bad ?? { status: 'contained', detail: '7 oversized hand-overs refused with their codes' };
    },
  },
  {
    id: 'MEM-13',
    category: 'MEM',
    title: "host work sized by the template: 100 request bodies of 1 MB on the embedder's thread",
    async run(h) {
      const s = harnessHttp();
      const u = `http://api.example.com:${s.port}/hello`;
      // The egress guard's modules load on the first request: not the attack's cost.
      await h.render('{api endpoint=$u status_var=q}', { vars: { u } });
      const before = s.seen.length;
      const lag = monitorEventLoopDelay({ resolution: 5 });
      lag.enable();
      const cpu0 = process.cpuUsage();
      // A wall limit far above the work: the figures, not a race with the machine's load, tell its cost.
      const engine = h.engine({ wallMs: 30_000 });
      await h.render('{$x}', { engine, vars: { x: 1 } });
      const t0 = performance.now();
      const a = await h.render(
        '{assign var=b value="é"|str_pad:1040000:"é"}{section name=i loop=1000}{api endpoint=$u method="POST" body=$b status_var=q}{/section}',
        { engine, vars: { u } },
      );
      const wall = performance.now() - t0;
      const cpu = process.cpuUsage(cpu0);
      lag.disable();
      const sent = s.seen.slice(before);
      const intact = sent.length > 0 && sent.every((r) => Buffer.byteLength(r.body) === 1040000 && /^é+$/.test(r.body));
      const o = judge(
        h,
        a,
        a.code === 'E_QUOTA' && sent.length <= 100 && intact,
        'E_QUOTA after at most 100 requests, each body its exact UTF-8 bytes',
      );
      if (o.status !== 'contained') return o;
      const figures = {
        requests: sent.length,
        wall_ms: Math.round(wall),
        host_cpu_ms: Math.round((cpu.user + cpu.system) / 1000),
        lag_p99_ms: Math.round(lag.percentile(99) / 1e6),
      };
      return {
        ...o,
        detail: `${o.detail}: ${figures.requests} sent in ${figures.wall_ms} ms; the embedding process (the harness's server included) used ${figures.host_cpu_ms} ms of CPU, event-loop lag p99 ${figures.lag_p99_ms} ms`,
        figures,
      };
    },
  },
];
