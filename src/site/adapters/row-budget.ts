/**
 * The per-tenant and per-member row caps of a local site (ROW_BUDGETS, D160), counted where the
 * rows are: one query in the transaction that writes, after a lock on the tenant's rows of that
 * kind (PostgreSQL: an advisory lock, which every process sharing the database takes; SQLite: the
 * transaction itself, which the site's database runs one at a time), so two processes cannot both
 * pass the last free place.
 */
import { BridgeError, type RowBudget } from '../../index.js';
import type { SiteDatabase, SqlRunner } from '../db/database.js';

/** Serialises, until the transaction ends, the writers of `kind` rows of `tenant`. */
export async function lockRows(tx: SqlRunner, db: SiteDatabase, tenant: string, kind: string): Promise<void> {
  if (db.dialect === 'postgres')
    await tx.run('SELECT pg_advisory_xact_lock(7317004, hashtext(?))', [`${tenant}\u0001${kind}`]);
}

/** Refuses a new row when `count` rows are already held against a `refuse` cap (E_BUDGET, or the code the store has always used). */
export function refuseAtCap(
  budget: RowBudget,
  cap: 'perTenant' | 'perMember',
  count: number,
  code: 'E_BUDGET' | 'E_QUOTA' = 'E_BUDGET',
): void {
  const c = budget[cap];
  if (c && c.atCap === 'refuse' && count >= c.max) {
    throw new BridgeError(
      code,
      `the site holds ${c.max} ${budget.rows}${cap === 'perMember' ? ' for this member' : ''}, its most; no more are made`,
    );
  }
}
