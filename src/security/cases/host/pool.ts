/** HH-05 (worker memory), HH-06 (compile off the loop), HH-11 (tenant lookups), HH-14 (kill times). */
import { readFileSync } from 'node:fs';
import { createEngine } from '../../../engine.js';
import type { HarnessContext, Outcome, SecurityCase } from '../../types.js';
import { percentile } from '../timing.js';

/** Keeps `mb` MB of 2,000-character strings alive until the render ends. */
const grow = (mb: number) =>
  `{section name=i loop=${mb * 500}}{append var=a value=$smarty.section.i.index|str_pad:2000:"x"}{/section}{$a|@count}`;
/** Allocates until the isolate's memory limit (MEM-01's bomb). */
const BOMB = '{section name=i loop=100000000}{append var=a value=$smarty.section.i.index|str_pad:2000:"x"}{/section}';
const setMemory = (mb: number) => (mb === 128 ? '' : `{set_memory memory_limit="${mb}M"}`);
/** Goal G5 (docs/security.md): a lone bomb's kill time per class. */
const G5_MS: Record<number, number> = { 128: 1500, 256: 2500, 512: 4000, 768: 6000 };

/** Resident memory of a process, MB (Linux /proc; 0 elsewhere). */
export function rssMB(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

/** CPU time a process used so far, ms (Linux /proc; 0 elsewhere). */
function cpuMs(pid: number): number {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(f[11]) + Number(f[12])) * 10;
  } catch {
    return 0;
  }
}

const sum = (pids: number[], f: (pid: number) => number) => pids.reduce((n, p) => n + f(p), 0);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A percentile of the figures (timing.ts's nearest rank); 0 when there are none. */
const pct = (xs: number[], p: number): number =>
  percentile(
    [...xs].sort((x, y) => x - y),
    p,
  ) ?? 0;

export const HH_POOL: SecurityCase[] = [
  {
    id: 'HH-05',
    category: 'HH',
    title:
      'five tenants grow a worker heap with one big successful render each, then go idle: the workers give the memory back',
    async run(h: HarnessContext): Promise<Outcome> {
      // The default rules but a 1 s idle period, so that the case need not wait a minute.
      const e = createEngine({
        host: h.host,
        limits: { cpuMs: 20_000, wallMs: 30_000 },
        pool: { isolateIdleMs: 1000 },
      });
      try {
        const tenants = ['hh05-a', 'hh05-b', 'hh05-c', 'hh05-d', 'hh05-e'];
        await Promise.all(tenants.map((t) => h.render('{$x}', { engine: e, identity: { tenant: t } })));
        await sleep(300);
        const pids = e.pids();
        const before = sum(pids, rssMB);
        let peak = before;
        for (const t of tenants) {
          const a = await h.render(`{set_memory memory_limit="512M"}${grow(150)}`, {
            engine: e,
            identity: { tenant: t },
          });
          if (a.output !== '75000')
            return { status: 'escaped', detail: `the big render of ${t} did not succeed: ${a.code ?? a.output}` };
          peak = Math.max(peak, sum(pids, rssMB));
        }
        // The idle period, then V8 hands a disposed isolate's pages back 8 s later.
        let after = sum(pids, rssMB);
        const until = Date.now() + 20_000;
        while (Date.now() < until && after > before + 80) {
          await sleep(250);
          after = sum(pids, rssMB);
        }
        const figures = {
          rss_before_mb: Math.round(before),
          rss_peak_mb: Math.round(peak),
          rss_idle_mb: Math.round(after),
        };
        const detail = `workers' RSS ${figures.rss_before_mb} MB before, ${figures.rss_peak_mb} MB at the peak of 5 x 150 MB renders, ${figures.rss_idle_mb} MB once idle`;
        return { status: after <= before + 80 ? 'contained' : 'escaped', detail, figures };
      } finally {
        await e.close();
      }
    },
  },
  {
    id: 'HH-14',
    category: 'HH',
    title:
      'six tenants run memory bombs at once (128M x3, 256M, 512M, 768M): each is killed with E_MEMORY_LIMIT, a bystander keeps rendering',
    async run(h: HarnessContext): Promise<Outcome> {
      const e = createEngine({ host: h.host, limits: { cpuMs: 60_000, wallMs: 90_000 } });
      // The mix fits the default big-memory budget (256 + 512 + 768 = 1,536 MB): all six run at once.
      const bombs = [128, 128, 128, 256, 512, 768].map((mb, i) => ({ tenant: `hh14-${i}`, mb }));
      const kills: Record<number, number[]> = { 128: [], 256: [], 512: [], 768: [] };
      const bystander: number[] = [];
      let workerCpu = 0;
      try {
        await Promise.all(
          [...bombs.map((b) => b.tenant), 'hh14-bystander'].map((t) =>
            h.render('{$x}', { engine: e, identity: { tenant: t } }),
          ),
        );
        for (let round = 0; round < 3; round++) {
          const pids = e.pids();
          const cpu0 = sum(pids, cpuMs);
          let running = true;
          let failed: string | undefined;
          const beside = (async () => {
            while (running) {
              const a = await h.render('{$x}', { engine: e, identity: { tenant: 'hh14-bystander' } });
              if (a.code) failed ??= a.code;
              else bystander.push(a.ms);
              await sleep(50);
            }
          })();
          const ends = await Promise.all(
            bombs.map((b) => h.render(setMemory(b.mb) + BOMB, { engine: e, identity: { tenant: b.tenant } })),
          );
          running = false;
          await beside;
          workerCpu += sum(pids, cpuMs) - cpu0;
          for (const [i, a] of ends.entries()) {
            const mb = bombs[i]!.mb;
            if (a.code !== 'E_MEMORY_LIMIT' && a.code !== 'E_SANDBOX_CRASHED')
              return {
                status: 'escaped',
                detail: `the ${mb}M bomb ended with ${a.code ?? 'output'} after ${a.ms.toFixed(0)} ms`,
              };
            // Generous: ten times the goal for a lone bomb, against a hang or a stuck queue.
            if (a.ms > 10 * G5_MS[mb]!)
              return { status: 'escaped', detail: `the ${mb}M bomb took ${a.ms.toFixed(0)} ms to be killed` };
            kills[mb]!.push(a.ms);
          }
          if (failed)
            return { status: 'escaped', detail: `the bystander's render failed with ${failed} while the bombs ran` };
        }
      } finally {
        await e.close();
      }
      const figures: Record<string, number> = {};
      const parts: string[] = [];
      for (const mb of [128, 256, 512, 768]) {
        figures[`kill_p50_ms_${mb}`] = Math.round(pct(kills[mb]!, 0.5));
        figures[`kill_max_ms_${mb}`] = Math.round(pct(kills[mb]!, 1));
        parts.push(`${mb}M ${figures[`kill_p50_ms_${mb}`]}/${figures[`kill_max_ms_${mb}`]} ms (G5 ${G5_MS[mb]})`);
      }
      figures.bystander_p50_ms = Math.round(pct(bystander, 0.5));
      figures.bystander_max_ms = Math.round(pct(bystander, 1));
      figures.worker_cpu_ms_per_round = Math.round(workerCpu / 3);
      const detail = `kill p50/max over 3 rounds: ${parts.join(', ')}; bystander p50/max ${figures.bystander_p50_ms}/${figures.bystander_max_ms} ms over ${bystander.length} renders; the workers used ${figures.worker_cpu_ms_per_round} ms of CPU per round (the bombs' own allocation work)`;
      return { status: 'contained', detail, figures };
    },
  },
];
