/**
 * The backups of a local site (HostAdapters.backups): archives in data/backups/<id>.tar
 * (backups/create.ts) with a row each in `backups`. Ids are the creation time and a random
 * suffix (`20240305100730-a1b2c3`), so they sort by age and cannot be guessed. The secrets are
 * sealed with the host's backup key (SMARTCAGE_BACKUP_KEY or SMARTCAGE_BACKUP_KEY_FILE, read when a
 * backup is made; never an attribute of {backup}), or left out of the backup without one.
 */
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { checkBackupBounds, currentRenderSignal, type BackupRecord, type HostAdapters } from '../../index.js';
import { detached } from '../db/render-statements.js';
import { lockRows } from './row-budget.js';
import type { SiteContext } from '../site-context.js';
import { siteFiles } from './basic.js';
import { createBackup } from '../backups/create.js';
import { BACKUP_DIR } from '../backups/layout.js';
import { backupKeyFromEnv } from '../backups/sealed.js';

interface BackupRow {
  id: string;
  memo: string;
  created: number | string;
  size: number | string;
}

const record = (r: BackupRow): BackupRecord => ({
  id: r.id,
  type: 'full',
  memo: r.memo,
  created: Number(r.created),
  size: Number(r.size),
});

/** The archive of backup `id` (ids are checked against the table before a path is made of them). */
export function backupFile(ctx: SiteContext, id: string): string {
  return path.join(ctx.dir, BACKUP_DIR, `${id}.tar`);
}

export function backupsAdapters(ctx: SiteContext): Partial<HostAdapters> {
  return {
    backups: {
      async create(memo, bounds) {
        const created = Math.floor(Date.now() / 1000);
        const stamp = new Date(created * 1000).toISOString().replace(/\D/g, '').slice(0, 14);
        const id = `${stamp}-${randomBytes(3).toString('hex')}`;
        // The row is claimed first, in one transaction with the template's bounds under the tenant's
        // lock, so two processes making a backup at once cannot both pass them (D339, BR-22). Until
        // its archive is done the row has no sha256 and size 0; it counts against the bounds.
        await ctx.db.transaction(async (tx) => {
          if (bounds) {
            await lockRows(tx, ctx.db, ctx.tenant, 'backups');
            const held = await tx.get<{ n: number | string; newest: number | string | null }>(
              'SELECT COUNT(*) AS n, MAX(created) AS newest FROM backups WHERE tenant = ?',
              [ctx.tenant],
            );
            const newest = held?.newest === null || held?.newest === undefined ? undefined : Number(held.newest);
            checkBackupBounds(Number(held?.n ?? 0), newest, created, bounds);
          }
          await tx.run(
            'INSERT INTO backups (tenant, id, type, memo, created, size, sha256) VALUES (?, ?, ?, ?, ?, ?, ?)',
            [ctx.tenant, id, 'full', memo, created, 0, ''],
          );
        });
        const signal = currentRenderSignal();
        try {
          const { size, sha256 } = await createBackup(ctx, siteFiles(ctx), id, created, backupKeyFromEnv(), signal);
          await ctx.db.run('UPDATE backups SET size = ?, sha256 = ? WHERE tenant = ? AND id = ?', [
            size,
            sha256,
            ctx.tenant,
            id,
          ]);
          return { id, type: 'full', memo, created, size };
        } catch (e) {
          // No row without its archive, no archive without its row; the render may have ended just
          // now, so the row goes in a statement of its own outside the render (detached).
          await detached(() => ctx.db.run('DELETE FROM backups WHERE tenant = ? AND id = ?', [ctx.tenant, id]));
          rmSync(backupFile(ctx, id), { force: true });
          throw e;
        }
      },
      async list() {
        const rows = await ctx.db.all<BackupRow>(
          'SELECT id, memo, created, size FROM backups WHERE tenant = ? ORDER BY created, id',
          [ctx.tenant],
        );
        return rows.map(record);
      },
      async delete(id) {
        const { changes } = await ctx.db.run('DELETE FROM backups WHERE tenant = ? AND id = ?', [ctx.tenant, id]);
        if (changes === 0) return false;
        rmSync(backupFile(ctx, id), { force: true });
        return true;
      },
    },
  };
}
