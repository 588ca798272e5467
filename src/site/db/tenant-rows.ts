/**
 * Whether a site key already has rows in a database, and removing one tenant's rows: every table
 * the migrations create has a `tenant` column, so "in use anywhere" is one probe per table. Used
 * where a new site must not become a second owner of an existing tenant's data (`site init` on a
 * shared PostgreSQL database) and to undo what a failed init wrote.
 */
import type { SqlRunner } from './database.js';
import { MIGRATIONS } from '../schema/index.js';

/** Every table the migrations create, in creation order. */
export function siteTables(): string[] {
  return MIGRATIONS.flatMap((m) => m.up('sqlite')).flatMap(
    (s) => /^CREATE TABLE IF NOT EXISTS (\w+)/.exec(s.trim())?.[1] ?? [],
  );
}

/** The first table holding a row of `tenant`, or null when the key is unused. */
export async function tableWithTenant(db: SqlRunner, tenant: string): Promise<string | null> {
  for (const t of siteTables())
    if (await db.get(`SELECT 1 AS x FROM ${t} WHERE tenant = ? LIMIT 1`, [tenant])) return t;
  return null;
}

/** Deletes every row of `tenant`, newest tables first (a later family's rows may name an earlier one's). */
export async function deleteTenantRows(db: SqlRunner, tenant: string): Promise<void> {
  for (const t of siteTables().reverse()) await db.run(`DELETE FROM ${t} WHERE tenant = ?`, [tenant]);
}
