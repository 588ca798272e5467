/**
 * The site store's schema as numbered, append-only migrations, recorded in `schema_migrations`
 * (one row per version applied; the table is the database's, not a tenant's, since a PostgreSQL
 * database holds many sites). Migration 1 is the baseline: every family's tables as they stood
 * when versioning began (the SchemaModule files), written with IF NOT EXISTS so a database made
 * before versioning takes it as a no-op and keeps every row. A change to a table is a new
 * migration at the end of MIGRATIONS, never an edit of an earlier one (test/site/schema pins
 * the baseline's statements).
 *
 * migrate() runs what is pending in one transaction under a lock (PostgreSQL: an advisory
 * transaction lock, so nodes opening sites of one database at once apply each version once;
 * SQLite: its write lock), in order, and records each. A database at a version this build does
 * not know was migrated by a newer smartcage: it is refused rather than used.
 */
import type { SiteDatabase, SqlRunner } from '../db/database.js';
import type { SchemaModule } from './schema-module.js';
import { metaSchema } from './meta.js';
import { contentSchema } from './content.js';
import { membersSchema } from './members.js';
import { tagsSchema } from './tags.js';
import { communitySchema } from './community.js';
import { sessionsSchema } from './sessions.js';
import { apiSchema } from './api.js';
import { jsonFieldsSchema } from './json-fields.js';
import { documentsSchema } from './documents.js';
import { spiderSchema } from './spider.js';
import { outboxSchema } from './outbox.js';
import { syncSchema } from './sync.js';
import { batchesSchema } from './batches.js';
import { backupsSchema } from './backups.js';

export interface Migration {
  version: number;
  /** What it does, in a few words (`smartcage site migrate` prints it). */
  name: string;
  /** Statements run in order, in the migration's transaction. */
  up(dialect: SiteDatabase['dialect']): readonly string[];
}

/** The families of the baseline, in the order they are created (a family may reference an earlier one's tables). */
export const BASELINE: readonly SchemaModule[] = [
  metaSchema,
  contentSchema,
  membersSchema,
  tagsSchema,
  communitySchema,
  sessionsSchema,
  apiSchema,
  jsonFieldsSchema,
  documentsSchema,
  spiderSchema,
  outboxSchema,
  syncSchema,
  batchesSchema,
  backupsSchema,
];

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: "baseline: every family's tables",
    up: (dialect) => BASELINE.flatMap((m) => m.statements(dialect)),
  },
  {
    version: 2,
    // D141: a JSON field is an extended column of type json, its values the contents' extended
    // values. A `json` column for each schema that has none (numbered after the group's last
    // column), the values copied into topic_ext_values (a value already there wins), and
    // ext_json_values emptied.
    name: "JSON fields become the contents' extended values",
    up: () => [
      `INSERT INTO topics_ext_columns (tenant, id, group_id, slug, type, repeat_cnt, order_no)
       SELECT s.tenant,
              COALESCE((SELECT MAX(c.id) FROM topics_ext_columns c WHERE c.tenant = s.tenant), 0) + ROW_NUMBER() OVER (PARTITION BY s.tenant ORDER BY s.group_id, s.slug),
              s.group_id, s.slug, 'json', 1,
              COALESCE((SELECT MAX(c.order_no) FROM topics_ext_columns c WHERE c.tenant = s.tenant AND c.group_id = s.group_id), 0) + ROW_NUMBER() OVER (PARTITION BY s.tenant, s.group_id ORDER BY s.slug)
       FROM ext_json_schemas s
       WHERE EXISTS (SELECT 1 FROM topics_groups g WHERE g.tenant = s.tenant AND g.id = s.group_id)
         AND NOT EXISTS (SELECT 1 FROM topics_ext_columns c WHERE c.tenant = s.tenant AND c.group_id = s.group_id AND c.slug = s.slug)`,
      `INSERT INTO topic_ext_values (tenant, topic_id, column_id, idx, value)
       SELECT v.tenant, v.topic_id, c.id, 0, v.value
       FROM ext_json_values v
       JOIN topics_ext_columns c ON c.tenant = v.tenant AND c.group_id = v.group_id AND c.slug = v.slug AND c.type = 'json'
       JOIN topics t ON t.tenant = v.tenant AND t.id = v.topic_id AND t.group_id = v.group_id
       WHERE true
       ON CONFLICT (tenant, topic_id, column_id, idx) DO NOTHING`,
      'DELETE FROM ext_json_values',
    ],
  },
  {
    version: 3,
    // D168-D170: the storage's usage count and path locks live in the site's database, shared by
    // every process on the site's storage (src/site/db/store-coordination.ts). storage_locks is
    // used on SQLite only; PostgreSQL takes advisory locks instead.
    name: 'storage usage count and path locks shared by every process',
    up: () => [
      `CREATE TABLE IF NOT EXISTS storage_usage (
        tenant TEXT NOT NULL PRIMARY KEY,
        bytes BIGINT NOT NULL,
        entries BIGINT NOT NULL,
        updated BIGINT NOT NULL
      )`,
      `CREATE TABLE IF NOT EXISTS storage_locks (
        tenant TEXT NOT NULL,
        lock_key TEXT NOT NULL,
        owner TEXT NOT NULL,
        expires BIGINT NOT NULL,
        PRIMARY KEY (tenant, lock_key)
      )`,
    ],
  },
  {
    version: 4,
    // D176, D177: a running attempt's heartbeat and progress, and the cancels asked of runs (a
    // running run's worker sees its row at the next heartbeat). Tables of their own, not columns:
    // IF NOT EXISTS holds on both dialects, so the migration is safe to apply twice.
    name: 'batch heartbeats, progress and cancels',
    up: () => [
      `CREATE TABLE IF NOT EXISTS batch_heartbeats (
        tenant TEXT NOT NULL,
        run_id INTEGER NOT NULL,
        attempt INTEGER NOT NULL,
        beat BIGINT NOT NULL,
        progress TEXT,
        PRIMARY KEY (tenant, run_id, attempt)
      )`,
      `CREATE TABLE IF NOT EXISTS batch_cancels (
        tenant TEXT NOT NULL,
        run_id INTEGER NOT NULL,
        requested BIGINT NOT NULL,
        PRIMARY KEY (tenant, run_id)
      )`,
    ],
  },
  {
    version: 5,
    // D235: the content version each write of the site's content moves on, one row per site,
    // read by every node that keeps API answers (src/site/db/content-version.ts).
    name: 'content version per site for the API cache',
    up: () => [
      `CREATE TABLE IF NOT EXISTS content_versions (
        tenant TEXT NOT NULL PRIMARY KEY,
        version BIGINT NOT NULL
      )`,
    ],
  },
  {
    version: 6,
    // D346: a list of a group's open contents, newest first, pages in SQL over this index: the
    // page's rows read in date order, the count from the index alone (every column it tests is
    // here). PostgreSQL orders the date by bytes ("C"), as the statements ask.
    name: "contents of a group by date, for lists' pages",
    up: (dialect) => [
      `CREATE INDEX IF NOT EXISTS topics_open_by_date ON topics (tenant, group_id, ${dialect === 'postgres' ? 'ymd COLLATE "C"' : 'ymd'}, id, open_flg, open_from, open_until, category_id)`,
    ],
  },
];

/** The version a database is at when every migration of this build is applied. */
export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;

/** The database was migrated by a newer build, or a migration failed: one line for the operator. */
export class MigrationError extends Error {}

export interface MigrationReport {
  /** Versions applied by this call, in order. */
  applied: Migration[];
  /** The database's version after the call. */
  version: number;
}

/** An arbitrary key for PostgreSQL's advisory lock on the site schema. */
const LOCK_KEY = 7317001;

async function appliedVersions(tx: SqlRunner): Promise<number[]> {
  const rows = await tx.all<{ version: number | string }>('SELECT version FROM schema_migrations ORDER BY version');
  return rows.map((r) => Number(r.version));
}

/** Applies what is pending of `migrations` (tests pass their own list). */
export async function migrate(
  db: SiteDatabase,
  migrations: readonly Migration[] = MIGRATIONS,
  now: () => number = () => Math.floor(Date.now() / 1000),
): Promise<MigrationReport> {
  return db.transaction(async (tx) => {
    if (db.dialect === 'postgres') await tx.run(`SELECT pg_advisory_xact_lock(${LOCK_KEY})`);
    await tx.run(
      'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER NOT NULL PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)',
    );
    const done = new Set(await appliedVersions(tx));
    const known = new Set(migrations.map((m) => m.version));
    const unknown = [...done].filter((v) => !known.has(v));
    if (unknown.length > 0) {
      throw new MigrationError(
        `the site database is at schema version ${Math.max(...unknown)}, newer than this smartcage knows (${migrations.at(-1)?.version ?? 0}): upgrade smartcage`,
      );
    }
    const applied: Migration[] = [];
    for (const m of migrations) {
      if (done.has(m.version)) continue;
      for (const statement of m.up(db.dialect)) {
        try {
          await tx.run(statement);
        } catch (e) {
          throw new MigrationError(`migration ${m.version} (${m.name}) failed: ${(e as Error).message.split('\n')[0]}`);
        }
      }
      await tx.run('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)', [
        m.version,
        m.name,
        now(),
      ]);
      applied.push(m);
    }
    return { applied, version: Math.max(0, ...done, ...applied.map((m) => m.version)) };
  });
}

/** Versions recorded in the database, without applying anything (none: a database never migrated). */
export async function schemaStatus(db: SiteDatabase): Promise<{ version: number; pending: Migration[] }> {
  let done: number[] = [];
  try {
    done = await appliedVersions(db);
  } catch {
    // No schema_migrations table: nothing applied yet.
  }
  return { version: Math.max(0, ...done), pending: MIGRATIONS.filter((m) => !done.includes(m.version)) };
}
