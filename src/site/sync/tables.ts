/**
 * The rows a site sync copies (docs/site.md, "Site sync"; D108). App design: content groups,
 * their categories and extended columns, the JSON schemas of JSON columns, and (except sync type
 * 4) tag categories and tags: the target's rows become the source's, updated in place so the
 * target's contents keep pointing at them; a design row the source lacks is deleted, which fails
 * (and so changes nothing) while target contents still use it, except that a deleted tag takes
 * its tag relations with it. Full (type 2) first empties the target's contents and then copies
 * the source's: contents with their texts, extended values (JSON columns' too), counters, tag
 * relations, and the master CSV tables. Never copied: members and groups, sessions, API tokens,
 * comments and favorites (members' own data), child sites, the outbox and the sync history.
 */
import { BridgeError } from '../../index.js';
import type { SiteDatabase, SqlRunner, SqlValue, Row } from '../db/database.js';
import type { SyncType } from '../../index.js';

interface TableSpec {
  table: string;
  key: readonly string[];
  /** A tag definition table: not copied by sync type 4. */
  tags?: boolean;
}

/** Parents first. */
const DESIGN: readonly TableSpec[] = [
  { table: 'topics_groups', key: ['id'] },
  { table: 'topics_categories', key: ['id'] },
  { table: 'topics_ext_columns', key: ['id'] },
  { table: 'ext_json_schemas', key: ['group_id', 'slug'] },
  { table: 'tag_categories', key: ['tag_category_id'], tags: true },
  { table: 'tags', key: ['tag_id'], tags: true },
];

/** Parents first. */
const CONTENTS: readonly TableSpec[] = [
  { table: 'csv_tables', key: ['id'] },
  { table: 'csv_rows', key: ['table_id', 'lang', 'row_no'] },
  { table: 'topics', key: ['id'] },
  { table: 'topic_texts', key: ['topic_id', 'lang'] },
  { table: 'topic_ext_values', key: ['topic_id', 'column_id', 'idx'] },
  { table: 'topic_counters', key: ['topic_id', 'column_id', 'idx'] },
  { table: 'topic_counters_pending', key: ['topic_id', 'column_id', 'idx'] },
  { table: 'tag_relations', key: ['module', 'module_id', 'tag_id'] },
];

/** Source rows one sync copies at most, over every table (counted before anything is read). */
export const MAX_SYNC_ROWS = 200_000;
const PAGE = 500;

function tablesOf(type: SyncType): { design: TableSpec[]; contents: TableSpec[] } {
  return { design: DESIGN.filter((t) => type !== 4 || !t.tags), contents: type === 2 ? [...CONTENTS] : [] };
}

/** Refuses a sync whose source holds more rows than MAX_SYNC_ROWS in the tables it would copy. */
export async function checkRowCount(source: SiteDatabase, tenant: string, type: SyncType): Promise<void> {
  const { design, contents } = tablesOf(type);
  let total = 0;
  for (const t of [...design, ...contents]) {
    const r = await source.get<{ n: number | string }>(`SELECT COUNT(*) AS n FROM ${t.table} WHERE tenant = ?`, [
      tenant,
    ]);
    total += Number(r?.n ?? 0);
  }
  if (total > MAX_SYNC_ROWS)
    throw new BridgeError(
      'E_SIZE_LIMIT',
      `{site_sync} the source site holds ${total} rows to copy; a sync copies at most ${MAX_SYNC_ROWS}`,
    );
}

/** The source's rows of `t`, a page at a time, in key order. */
async function* pages(source: SiteDatabase, tenant: string, t: TableSpec): AsyncGenerator<Row[]> {
  for (let offset = 0; ; offset += PAGE) {
    const rows = await source.all(
      `SELECT * FROM ${t.table} WHERE tenant = ? ORDER BY ${t.key.join(', ')} LIMIT ? OFFSET ?`,
      [tenant, PAGE, offset],
    );
    if (rows.length) yield rows;
    if (rows.length < PAGE) return;
  }
}

const keyOf = (t: TableSpec, row: Row): string => JSON.stringify(t.key.map((k) => String(row[k])));

/** Writes `rows` as the target's: inserted, or (upsert) updated in place where the key exists. */
async function write(tx: SqlRunner, to: string, t: TableSpec, rows: Row[], upsert: boolean): Promise<void> {
  const columns = Object.keys(rows[0]!).filter((c) => c !== 'tenant');
  const rest = columns.filter((c) => !t.key.includes(c));
  const conflict = upsert
    ? ` ON CONFLICT (tenant, ${t.key.join(', ')}) DO ${rest.length ? `UPDATE SET ${rest.map((c) => `${c} = excluded.${c}`).join(', ')}` : 'NOTHING'}`
    : '';
  const sql = `INSERT INTO ${t.table} (tenant, ${columns.join(', ')}) VALUES (${['?', ...columns.map(() => '?')].join(', ')})${conflict}`;
  for (const row of rows) await tx.run(sql, [to, ...columns.map((c) => (row[c] ?? null) as SqlValue)]);
}

/** Makes the target's rows of the sync's tables the source's, inside the target's transaction `tx`. */
export async function copyTables(
  source: SiteDatabase,
  from: string,
  tx: SqlRunner,
  to: string,
  type: SyncType,
): Promise<void> {
  const { design, contents } = tablesOf(type);
  for (const t of [...contents].reverse()) await tx.run(`DELETE FROM ${t.table} WHERE tenant = ?`, [to]);
  const kept = new Map<string, Set<string>>();
  for (const t of design) {
    const keys = new Set<string>();
    for await (const rows of pages(source, from, t)) {
      await write(tx, to, t, rows, true);
      for (const r of rows) keys.add(keyOf(t, r));
    }
    kept.set(t.table, keys);
  }
  for (const t of [...design].reverse()) {
    const keys = kept.get(t.table)!;
    const present = await tx.all(`SELECT ${t.key.join(', ')} FROM ${t.table} WHERE tenant = ?`, [to]);
    for (const row of present) {
      if (keys.has(keyOf(t, row))) continue;
      await tx.run(`DELETE FROM ${t.table} WHERE tenant = ? AND ${t.key.map((k) => `${k} = ?`).join(' AND ')}`, [
        to,
        ...t.key.map((k) => row[k] as SqlValue),
      ]);
    }
  }
  for (const t of contents) for await (const rows of pages(source, from, t)) await write(tx, to, t, rows, false);
}
