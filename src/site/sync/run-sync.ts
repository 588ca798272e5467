/**
 * One {site_sync} run on a local site's host: rows and files of the source copied into the
 * target so that a failure leaves the target as it was. The files are staged first (folders.ts);
 * then, in one transaction of the target's database, the interval is checked against the
 * completed runs, the rows are copied (tables.ts), the run is recorded and the staged files are
 * swapped in; a failure before the commit rolls the rows back and swaps the files back. A failed
 * run is recorded afterwards with its reason.
 */
import type { SiteSyncResult, SiteSyncRun } from '../../index.js';
import type { SiteDatabase, SqlRunner } from '../db/database.js';
import type { SiteContext } from '../site-context.js';
import { findHostSite, withSiteDb, type HostFolder } from './host-sites.js';
import { checkRowCount, copyTables } from './tables.js';
import { stage, type Staged } from './folders.js';

/** Longest reason kept with a failed run. */
const MAX_SYNC_ERROR_CHARS = 500;

async function nextRunId(db: SqlRunner, tenant: string): Promise<number> {
  const r = await db.get<{ id: number | string }>(
    'SELECT COALESCE(MAX(run_id), 0) + 1 AS id FROM site_sync_runs WHERE tenant = ?',
    [tenant],
  );
  return Number(r!.id);
}

async function lastCompleted(db: SqlRunner, tenant: string): Promise<number | null> {
  const r = await db.get<{ at: number | string | null }>(
    "SELECT MAX(run_at) AS at FROM site_sync_runs WHERE tenant = ? AND status = 'done'",
    [tenant],
  );
  return r?.at === null || r?.at === undefined ? null : Number(r.at);
}

async function intoTarget(
  target: SiteDatabase,
  source: SiteDatabase,
  from: HostFolder,
  to: HostFolder,
  run: SiteSyncRun,
): Promise<SiteSyncResult> {
  let staged: Staged | undefined;
  let swapped = false;
  try {
    await checkRowCount(source, run.from, run.type);
    const files = (staged = await stage(from.dir, to.dir, run.type));
    const result = await target.transaction(async (tx): Promise<SiteSyncResult> => {
      if (target.dialect === 'postgres') await tx.run('SELECT pg_advisory_xact_lock(7317003, hashtext(?))', [run.to]);
      const last = await lastCompleted(tx, run.to);
      if (last !== null && last > run.notAfter) return { ok: false, lastSync: last };
      await copyTables(source, run.from, tx, run.to, run.type);
      const runId = await nextRunId(tx, run.to);
      await tx.run(
        "INSERT INTO site_sync_runs (tenant, run_id, from_site, sync_type, run_at, status) VALUES (?, ?, ?, ?, ?, 'done')",
        [run.to, runId, run.from, run.type, run.now],
      );
      await files.swap();
      swapped = true;
      return { ok: true, runId };
    });
    await files.remove();
    return result;
  } catch (e) {
    if (swapped) await staged?.undo();
    await staged?.remove();
    const runId = await nextRunId(target, run.to);
    await target.run(
      "INSERT INTO site_sync_runs (tenant, run_id, from_site, sync_type, run_at, status, error) VALUES (?, ?, ?, ?, ?, 'failed', ?)",
      [run.to, runId, run.from, run.type, run.now, String((e as Error).message).slice(0, MAX_SYNC_ERROR_CHARS)],
    );
    throw e;
  }
}

export async function runSync(ctx: SiteContext, run: SiteSyncRun): Promise<SiteSyncResult> {
  const from = findHostSite(ctx, run.from);
  const to = findHostSite(ctx, run.to);
  if (!from || !to) throw new Error(`no site ${!from ? run.from : run.to} on this host`);
  return withSiteDb(ctx, from, (source) => withSiteDb(ctx, to, (target) => intoTarget(target, source, from, to, run)));
}
