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
import { TemplateError } from '../../index.js';
import type { Site } from '../open-site.js';
import type { BatchQueue, QueuedRun } from './queue.js';
import { DEFAULT_LEASE_MS } from './queue.js';
import { lineage, siteQueue } from './site-queue.js';
import { moduleBatch } from './module-batches.js';
import { beginAttempt, endAttempt, pruneHistory, type RunOutcome } from './history.js';
import { dueSlot, parseSchedule } from './schedule.js';

export interface RunEvent {
  kind: 'queued' | 'start' | 'end';
  /** The site's key (tenant). */
  site: string;
  run?: QueuedRun;
  slug: string;
  state?: 'done' | 'failed';
  /** The first error of a failed run. */
  error?: string;
  /** false: the run ended after its lease was lost (another worker may run it again). */
  kept?: boolean;
}

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
}

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

async function render(site: Site, run: QueuedRun, requestId: string): Promise<RunOutcome> {
  const t = templateOf(site, run);
  if (!t)
    return { state: 'failed', output: '', errors: [`batches/${run.slug}.tpl does not exist`], warnings: [], logs: [] };
  const engine = site.engines.at(0);
  try {
    const r = await engine.render(t.source, {
      name: t.name,
      vars: `{"ext_data":${run.data}}`,
      identity: site.identity({ memberId: null, context: 'batch', requestId }),
    });
    return { state: 'done', output: r.output, errors: [], warnings: r.warnings, logs: r.logs };
  } catch (e) {
    return { state: 'failed', output: '', errors: [describe(e)], warnings: [], logs: [] };
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
): Promise<'done' | 'failed'> {
  const slug = run.module ? `${run.module}/${run.slug}` : run.slug;
  onEvent?.({ kind: 'start', site: site.tenant, run, slug });
  await beginAttempt(site, run, owner, now());
  const requestId = `batch-${site.tenant}-${run.id}`;
  const runs = lineage(site);
  runs.set(requestId, run.depth);
  let leaseLost = false;
  const renew = setInterval(
    () => {
      queue.renew(run.id, owner).then(
        (ok) => {
          if (!ok) leaseLost = true;
        },
        () => {
          leaseLost = true;
        },
      );
    },
    Math.max(50, Math.floor(leaseMs / 3)),
  );
  let outcome: RunOutcome;
  try {
    outcome = await render(site, run, requestId);
  } finally {
    clearInterval(renew);
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
  const summary: RunnerSummary = { done: 0, failed: 0 };
  for (const site of sites) await pruneHistory(site, now());
  while (!opts.signal?.aborted) {
    let ran = false;
    for (const [i, site] of sites.entries()) {
      if (opts.signal?.aborted) break;
      const queue = queues[i]!;
      await queueDue(site, queue, now(), opts.onEvent);
      const run = await queue.claim(owner);
      if (!run) continue;
      summary[await runClaimed(site, queue, run, owner, leaseMs, now, opts.onEvent)]++;
      ran = true;
    }
    if (ran) continue;
    if (opts.once) break;
    await sleep(opts.pollMs ?? 5000, opts.signal);
  }
  return summary;
}
