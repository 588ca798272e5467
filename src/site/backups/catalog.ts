/**
 * What a restore asks the target database itself, rather than the backup's list of tables: the
 * tables that name a site (a `tenant` column, or `site_key`, as child_sites registers sites),
 * whether a site key is there in any of them, and each table's columns. A table added by a later
 * version, or by the embedder, is found the same way.
 */
import type { SqlRunner, SiteDatabase } from '../db/database.js';

type Dialect = SiteDatabase['dialect'];

/** Columns that hold a site key. */
const SITE_COLUMNS = ['tenant', 'site_key'] as const;

/** Every column of every table of the database, by table, as the database has them. */
export async function tableColumns(db: SqlRunner, dialect: Dialect): Promise<Map<string, Set<string>>> {
  const rows =
    dialect === 'postgres'
      ? await db.all<{ t: string; c: string }>(
          'SELECT table_name AS t, column_name AS c FROM information_schema.columns WHERE table_schema = current_schema()',
        )
      : await db.all<{ t: string; c: string }>(
          "SELECT m.name AS t, p.name AS c FROM sqlite_master m, pragma_table_info(m.name) p WHERE m.type = 'table'",
        );
  const out = new Map<string, Set<string>>();
  for (const r of rows) {
    let cols = out.get(r.t);
    if (!cols) out.set(r.t, (cols = new Set()));
    cols.add(r.c);
  }
  return out;
}

/**
 * Rows a site leaves behind that are no site's data: its content version (D235), which must keep
 * counting up over a restore (a node may still hold answers made at a lower one).
 */
const NOT_A_SITE = new Set(['content_versions']);

/** `table.column` where `siteKey` is already a site of the database, or null when it is nowhere. */
export async function siteKeyInUse(db: SqlRunner, dialect: Dialect, siteKey: string): Promise<string | null> {
  for (const [table, cols] of await tableColumns(db, dialect)) {
    if (!/^\w+$/.test(table) || NOT_A_SITE.has(table)) continue;
    for (const col of SITE_COLUMNS) {
      if (cols.has(col) && (await db.get(`SELECT 1 AS x FROM ${table} WHERE ${col} = ? LIMIT 1`, [siteKey])))
        return `${table}.${col}`;
    }
  }
  return null;
}
