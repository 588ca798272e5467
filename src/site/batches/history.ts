/**
 * The run history of a site's batches (batch_runs): one row per attempt, with what the render
 * printed, its errors, W_RUNTIME warnings and log lines, so `smartcage batch history` shows why a
 * run failed and that a run whose worker died ran again. Kept in the site store for both queue
 * backends. Texts are capped (MAX_LOG_CHARS each) so a chatty batch cannot grow the store.
 */
import type { SiteContext } from '../site-context.js';
import type { QueuedRun } from './queue.js';

/** What one attempt keeps of each text (output, errors, warnings, logs as JSON). */
export const MAX_LOG_CHARS = 64 * 1024;
/** History rows older than this go when a runner starts. */
const HISTORY_DAYS = 90;

/** `lost`: its worker died; `cancelled`: `smartcage batch cancel` (a run cancelled while queued has one attempt of this state, worker "-"). */
type RunState = 'running' | 'done' | 'failed' | 'lost' | 'cancelled';

export interface RunRecord {
  runId: number;
  attempt: number;
  slug: string;
  origin: string;
  worker: string;
  state: RunState;
  started: number;
  ended: number | null;
  /** The running attempt's last heartbeat (Unix seconds; null before the first). */
  heartbeat: number | null;
  /** What the running attempt has done so far (host calls made, the last one's plugin); null before its first. */
  progress: string | null;
  output: string;
  errors: string[];
  warnings: string[];
  logs: { level: string; message: string }[];
}

export interface RunOutcome {
  state: 'done' | 'failed' | 'cancelled';
  output: string;
  errors: string[];
  warnings: string[];
  logs: { level: string; message: string }[];
}

const cap = (s: string) => (s.length > MAX_LOG_CHARS ? s.slice(0, MAX_LOG_CHARS - 20) + '\n[... cut]' : s);
/** A list kept as JSON, cut at whole entries so it stays JSON. */
function capList<T>(list: readonly T[]): string {
  const out: T[] = [];
  let size = 2;
  for (const x of list) {
    size += JSON.stringify(x).length + 1;
    if (size > MAX_LOG_CHARS) break;
    out.push(x);
  }
  return JSON.stringify(out);
}

/**
 * An attempt begins; attempts before it still `running` lost their worker. Run ids and attempt
 * numbers both come from the site store (store-queue.ts), so (run, attempt) is new every time: a
 * plain INSERT, which fails rather than overwrite another attempt's row.
 */
export async function beginAttempt(ctx: SiteContext, run: QueuedRun, worker: string, now: number): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    await tx.run(
      "UPDATE batch_runs SET state = 'lost', ended = ? WHERE tenant = ? AND run_id = ? AND attempt < ? AND state = 'running'",
      [now, ctx.tenant, run.id, run.attempt],
    );
    await tx.run(
      `INSERT INTO batch_runs (tenant, run_id, attempt, slug, origin, worker, state, started, ended, output, errors, warnings, logs)
       VALUES (?, ?, ?, ?, ?, ?, 'running', ?, NULL, '', '[]', '[]', '[]')`,
      [ctx.tenant, run.id, run.attempt, run.module ? `${run.module}/${run.slug}` : run.slug, run.origin, worker, now],
    );
  });
}

/** The running attempt is alive (`now`, Unix seconds) and has got this far. */
export async function heartbeat(ctx: SiteContext, run: QueuedRun, now: number, progress: string | null): Promise<void> {
  await ctx.db.run(
    `INSERT INTO batch_heartbeats (tenant, run_id, attempt, beat, progress) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (tenant, run_id, attempt) DO UPDATE SET beat = excluded.beat, progress = excluded.progress`,
    [ctx.tenant, run.id, run.attempt, now, progress],
  );
}

/** A run cancelled before any attempt began: one attempt row says so (the run never starts). */
export async function recordCancelledQueued(
  ctx: SiteContext,
  run: { id: number; slug: string; origin: string },
  now: number,
): Promise<void> {
  await ctx.db.run(
    `INSERT INTO batch_runs (tenant, run_id, attempt, slug, origin, worker, state, started, ended, output, errors, warnings, logs)
     VALUES (?, ?, 1, ?, ?, '-', 'cancelled', ?, ?, '', '[]', '[]', '[]')`,
    [ctx.tenant, run.id, run.slug, run.origin, now, now],
  );
}

export async function endAttempt(ctx: SiteContext, run: QueuedRun, outcome: RunOutcome, now: number): Promise<void> {
  await ctx.db.run(
    'UPDATE batch_runs SET state = ?, ended = ?, output = ?, errors = ?, warnings = ?, logs = ? WHERE tenant = ? AND run_id = ? AND attempt = ?',
    [
      outcome.state,
      now,
      cap(outcome.output),
      capList(outcome.errors),
      capList(outcome.warnings),
      capList(outcome.logs),
      ctx.tenant,
      run.id,
      run.attempt,
    ],
  );
}

interface HistoryRow {
  run_id: number | string;
  attempt: number | string;
  slug: string;
  origin: string;
  worker: string;
  state: RunState;
  started: number | string;
  ended: number | string | null;
  heartbeat: number | string | null;
  progress: string | null;
  output: string;
  errors: string;
  warnings: string;
  logs: string;
}

/** The newest attempts first (`runId`: that run's attempts only). */
export async function history(ctx: SiteContext, opts: { limit?: number; runId?: number } = {}): Promise<RunRecord[]> {
  const where = opts.runId === undefined ? '' : ' AND r.run_id = ?';
  const params = opts.runId === undefined ? [ctx.tenant] : [ctx.tenant, opts.runId];
  const rows = await ctx.db.all<HistoryRow>(
    `SELECT r.run_id, r.attempt, slug, origin, worker, state, started, ended, h.beat AS heartbeat, h.progress, output, errors, warnings, logs
     FROM batch_runs r LEFT JOIN batch_heartbeats h ON h.tenant = r.tenant AND h.run_id = r.run_id AND h.attempt = r.attempt
     WHERE r.tenant = ?${where} ORDER BY started DESC, r.run_id DESC, r.attempt DESC LIMIT ?`,
    [...params, opts.limit ?? 50],
  );
  return rows.map((r) => ({
    runId: Number(r.run_id),
    attempt: Number(r.attempt),
    slug: r.slug,
    origin: r.origin,
    worker: r.worker,
    state: r.state,
    started: Number(r.started),
    ended: r.ended === null ? null : Number(r.ended),
    heartbeat: r.heartbeat === null ? null : Number(r.heartbeat),
    progress: r.progress,
    output: r.output,
    errors: JSON.parse(r.errors) as string[],
    warnings: JSON.parse(r.warnings) as string[],
    logs: JSON.parse(r.logs) as RunRecord['logs'],
  }));
}

export async function pruneHistory(ctx: SiteContext, now: number): Promise<void> {
  await ctx.db.run('DELETE FROM batch_runs WHERE tenant = ? AND started < ?', [
    ctx.tenant,
    now - HISTORY_DAYS * 86_400,
  ]);
  await ctx.db.run(
    'DELETE FROM batch_heartbeats WHERE tenant = ? AND NOT EXISTS (SELECT 1 FROM batch_runs r WHERE r.tenant = batch_heartbeats.tenant AND r.run_id = batch_heartbeats.run_id AND r.attempt = batch_heartbeats.attempt)',
    [ctx.tenant],
  );
}
