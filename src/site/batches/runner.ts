/**
 * Running a site's batches (`smartcage batch run`): queue the schedule slots that are due, then
 * claim runs and render each one's template in the batch context: no member, no request, no
 * cookies ($smarty.get/post/cookies empty, {cookie} and favorites by cookie see nothing), the
 * run's data as `$ext_data`. Each attempt goes into the history (history.ts); the lease is renewed
 * while the template renders, so only a dead worker's run is claimed again.
 *
 * A run's request id is the same for every attempt (`batch-<tenant>-<id>`): a run that is re-run
 * after its worker died queues its own {batch} calls under the same dedupe keys, so a chain does
 * not fork when a link is retried (docs/decisions.md D98).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { TemplateError, type Engine } from '../../index.js';
import type { Site } from '../open-site.js';
import type { BatchQueue, LeaseState, QueuedRun, RunEnd } from './queue.js';
import { DEFAULT_LEASE_MS } from './queue.js';
import { lineage, siteQueue } from './site-queue.js';
import { moduleBatch } from './module-batches.js';
import { beginAttempt, endAttempt, heartbeat, pruneHistory, type RunOutcome } from './history.js';
import { batchSandboxLimits, DEFAULT_BATCH_LIMITS } from './limits.js';
import { watchProgress } from './progress.js';
import { dueSlot, parseSchedule } from './schedule.js';

export interface RunEvent {
  /** `backend`: the site's database or queue failed a turn; the runner waits and tries again. */
  kind: 'queued' | 'start' | 'end' | 'backend';
  /** The site's key (tenant). */
  site: string;
  run?: QueuedRun;
  slug: string;
  state?: RunEnd;
  /** The first error of a failed run. */
  error?: string;
  /** false: the run ended after its lease was lost (another worker may run it again). */
  kept?: boolean;
  /** For `backend`: what failed, one line, and the wait before the next try (ms). */
  message?: string;
  retryMs?: number;
}

/** The wait after a turn whose backend failed, doubling up to this. */
const BACKEND_RETRY_MAX_MS = 10_000;

export interface RunnerOptions {
  /** Run what is queued or due until nothing waits, then return; otherwise run until `signal` aborts. */
  once: boolean;
  /** This worker's name in leases and the history; default host-pid-random. */
  owner?: string;
  leaseMs?: number;
  /** How long an idle loop waits before it looks again (default 5 s). */
  pollMs?: number;
  signal?: AbortSignal;
  onEvent?(e: RunEvent): void;
  /** Unix seconds (tests fix the clock of the schedules). */
  now?: () => number;
}

export interface RunnerSummary {
  done: number;
  failed: number;
  cancelled: number;
}

/**
 * A running attempt's heartbeat at most this far apart (more often with a lease under 15 s: every
 * third of it): it renews the lease, writes the heartbeat and progress into the history, and is
 * when the worker sees a cancel, so a cancelled run stops within this time.
 */
export const HEARTBEAT_MS = 5000;

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** Queues each scheduled batch's due slot once (one run per slot, however many runners look). */
export async function queueDue(
  site: Site,
  queue: BatchQueue,
  now: number,
  onEvent?: (e: RunEvent) => void,
): Promise<number> {
  let queued = 0;
  for (const b of site.config.batches) {
    const schedule = b.schedule === undefined ? null : parseSchedule(b.schedule);
    if (!schedule) continue;
    const last = await site.db.get<{ last_slot: number | string }>(
      'SELECT last_slot FROM batch_schedule WHERE tenant = ? AND slug = ?',
      [site.tenant, b.slug],
    );
    const slot = dueSlot(schedule, now, site.config.timezone, last ? Number(last.last_slot) : null);
    if (slot === null) continue;
    await queue.enqueue({
      slug: b.slug,
      module: null,
      data: '[]',
      origin: 'schedule',
      requestId: `schedule-${slot}`,
      depth: 0,
      dedupeKey: `schedule:${b.slug}:${slot}`,
    });
    await site.db.run(
      'INSERT INTO batch_schedule (tenant, slug, last_slot) VALUES (?, ?, ?) ON CONFLICT (tenant, slug) DO UPDATE SET last_slot = excluded.last_slot WHERE batch_schedule.last_slot < excluded.last_slot',
      [site.tenant, b.slug, slot],
    );
    queued++;
    onEvent?.({ kind: 'queued', site: site.tenant, slug: b.slug });
  }
  return queued;
}

function templateOf(site: Site, run: QueuedRun): { name: string; source: string } | null {
  if (run.module !== null) {
    const source = moduleBatch(run.module, run.slug);
    return source === undefined ? null : { name: `${run.module}/${run.slug}`, source };
  }
  const name = `batches/${run.slug}.tpl`;
  try {
    return { name, source: readFileSync(path.join(site.dir, name), 'utf8') };
  } catch {
    return null;
  }
}

function describe(e: unknown): string {
  if (e instanceof TemplateError) return `${e.template}:${e.line}:${e.column}: ${e.code}: ${e.message}`;
  return e instanceof Error ? e.message : String(e);
}

/**
 * The engine of the site's batch runs: the site's batch limits (site.json `batch_limits`) instead
 * of the web's, one engine per distinct set of limits, so sites that keep the defaults share one.
 */
function batchEngine(site: Site): Engine {
  const l = site.config.batch_limits ?? DEFAULT_BATCH_LIMITS;
  return site.engines.for(`batch ${l.wallMs} ${l.cpuMs} ${l.memoryMB}`, (o) => ({
    ...o,
    memoryClass: l.memoryMB,
    limits: { ...o.limits, ...batchSandboxLimits(l) },
  }));
}

async function render(site: Site, run: QueuedRun, requestId: string, signal: AbortSignal): Promise<RunOutcome> {
  const t = templateOf(site, run);
  if (!t)
    return { state: 'failed', output: '', errors: [`batches/${run.slug}.tpl does not exist`], warnings: [], logs: [] };
  const engine = batchEngine(site);
  try {
    const r = await engine.render(t.source, {
      name: t.name,
      vars: `{"ext_data":${run.data}}`,
      identity: site.identity({ memberId: null, context: 'batch', requestId }),
      signal,
    });
    return { state: 'done', output: r.output, errors: [], warnings: r.warnings, logs: r.logs };
  } catch (e) {
    const state = signal.aborted ? 'cancelled' : 'failed';
    return { state, output: '', errors: [describe(e)], warnings: [], logs: [] };
  } finally {
    engine.endRequest({ tenant: site.tenant, requestId });
    site.requests.end(requestId);
  }
}

/** Runs one claimed run: history, lease renewal, the render, the end. */
async function runClaimed(
  site: Site,
  queue: BatchQueue,
  run: QueuedRun,
  owner: string,
  leaseMs: number,
  now: () => number,
  onEvent?: (e: RunEvent) => void,
): Promise<RunEnd> {
  const slug = run.module ? `${run.module}/${run.slug}` : run.slug;
  onEvent?.({ kind: 'start', site: site.tenant, run, slug });
  await beginAttempt(site, run, owner, now());
  const requestId = `batch-${site.tenant}-${run.id}`;
  const runs = lineage(site);
  runs.set(requestId, run.depth);
  let leaseLost = false;
  const cancel = new AbortController();
  const progress = watchProgress(requestId);
  const beat = async () => {
    const lease: LeaseState = await queue.renew(run.id, owner).catch(() => 'lost' as const);
    if (lease === 'lost') leaseLost = true;
    // The render's signal: its host work stops and its next host call ends it (E_CANCELLED).
    if (lease === 'cancelled') cancel.abort();
    await heartbeat(site, run, now(), progress.read()).catch(() => {});
  };
  const beats = setInterval(() => void beat(), Math.max(50, Math.min(HEARTBEAT_MS, Math.floor(leaseMs / 3))));
  let outcome: RunOutcome;
  try {
    outcome = await render(site, run, requestId, cancel.signal);
  } finally {
    clearInterval(beats);
    progress.stop();
    runs.delete(requestId);
  }
  await endAttempt(site, run, outcome, now());
  const kept = (await queue.finish(run.id, owner, outcome.state, outcome.errors[0])) && !leaseLost;
  onEvent?.({ kind: 'end', site: site.tenant, run, slug, state: outcome.state, error: outcome.errors[0], kept });
  return outcome.state;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

export async function runBatches(site: Site, opts: RunnerOptions): Promise<RunnerSummary> {
  return runSitesBatches([site], opts);
}

/**
 * One runner for several sites (`smartcage batch run --sites DIR`): each turn goes round the
 * sites, queues each one's due slots and runs at most one of its runs, so a site with a long
 * queue cannot keep the others' runs waiting for more than one run each. Idle when a whole turn
 * found nothing.
 */
export async function runSitesBatches(sites: readonly Site[], opts: RunnerOptions): Promise<RunnerSummary> {
  const owner = opts.owner ?? `${process.pid}-${randomUUID().slice(0, 8)}`;
  const leaseMs = opts.leaseMs ?? DEFAULT_LEASE_MS;
  const now = opts.now ?? nowSeconds;
  const queues = await Promise.all(sites.map((site) => siteQueue(site, { leaseMs })));
  const summary: RunnerSummary = { done: 0, failed: 0, cancelled: 0 };
  for (const site of sites) await pruneHistory(site, now());
  let retryMs = 0;
  while (!opts.signal?.aborted) {
    let ran = false;
    let failed = false;
    for (const [i, site] of sites.entries()) {
      if (opts.signal?.aborted) break;
      const queue = queues[i]!;
      try {
        await queueDue(site, queue, now(), opts.onEvent);
        const run = await queue.claim(owner);
        if (!run) continue;
        summary[await runClaimed(site, queue, run, owner, leaseMs, now, opts.onEvent)]++;
        ran = true;
      } catch (e) {
        // A database restarting under a long-running worker (PostgreSQL's 57P01), or a queue
        // that is down, must not end the worker: what the turn had claimed keeps its lease in the
        // store, so the run is taken again once the lease expires (the documented at-least-once
        // retry, D122). --once is a single pass, and says so by failing.
        if (opts.once) throw e;
        failed = true;
        retryMs = Math.min(BACKEND_RETRY_MAX_MS, retryMs ? retryMs * 2 : 500);
        opts.onEvent?.({
          kind: 'backend',
          site: site.tenant,
          slug: '',
          message: describe(e).split('\n')[0]!.slice(0, 300),
          retryMs,
        });
      }
    }
    if (failed) {
      await sleep(retryMs, opts.signal);
      continue;
    }
    retryMs = 0;
    if (ran) continue;
    if (opts.once) break;
    await sleep(opts.pollMs ?? 5000, opts.signal);
  }
  return summary;
}
