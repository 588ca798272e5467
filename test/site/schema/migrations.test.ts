/**
 * The site store's versioned migrations (src/site/schema/migrations.ts), on SQLite and on a
 * PostgreSQL database of the test's own (it drops and rewrites schema_migrations, which the other
 * tests' sites share on the CI server's database): a database made before versioning upgrades with
 * every row kept, pending migrations apply once and in order even when two openers race, a
 * failing one leaves nothing, a newer database is refused, and the baseline is never edited.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { eachBackend, PG_URL, type Backend } from '../support/backends.js';
import { initSite } from '../../../src/site/init.js';
import { openDatabase, SQLITE_FILE, type SiteDatabase } from '../../../src/site/db/database.js';
import { MigrationError, MIGRATIONS, migrate, schemaStatus, type Migration } from '../../../src/site/schema/index.js';
import { BASELINE } from '../../../src/site/schema/migrations.js';

/** The statements of migration 1 as first released: a change to them must be a new migration. */
const BASELINE_SHA256 = '78a2f18f5df6d6e80d81f2f16d5f9e8e94eeb66e79c9b2c04389ebd72f183ba8';

function tablesOf(db: SiteDatabase): string[] {
  return BASELINE.flatMap((m) => m.statements(db.dialect)).flatMap(
    (s) => /^CREATE TABLE IF NOT EXISTS (\w+)/.exec(s.trim())?.[1] ?? [],
  );
}

async function rowCounts(db: SiteDatabase): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const t of tablesOf(db))
    counts[t] = Number((await db.get<{ n: number | string }>(`SELECT COUNT(*) AS n FROM ${t}`))!.n);
  return counts;
}

eachBackend('site store migrations', (backend: Backend) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'smartcage-migrate-'));
  let url: string | null = null;
  const made: string[] = [];
  /** A PostgreSQL database of this test's own on the CI server; its URL. */
  async function newPgDatabase(): Promise<string> {
    const name = `migrate_${randomBytes(5).toString('hex')}`;
    const admin = new pg.Client({ connectionString: PG_URL! });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    made.push(name);
    const u = new URL(PG_URL!);
    u.pathname = `/${name}`;
    return u.toString();
  }

  beforeAll(async () => {
    if (backend.name === 'postgres') url = await newPgDatabase();
    // A site made by this build, then put back to how a database looked before versioning.
    await initSite(path.join(dir, 'site'), { siteKey: 'old', database: url });
    if (!url) rmSync(path.join(dir, 'data'), { recursive: true, force: true });
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    if (made.length > 0) {
      const admin = new pg.Client({ connectionString: PG_URL! });
      await admin.connect();
      for (const name of made) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  });

  const siteDb = () => openDatabase({ url, sqlitePath: path.join(dir, 'site', SQLITE_FILE) });

  it('upgrades a database made before versioning with every row kept', async () => {
    const db = await siteDb();
    try {
      await db.run('DROP TABLE schema_migrations');
      expect((await schemaStatus(db)).version).toBe(0);
      const before = await rowCounts(db);
      expect(before.topics).toBeGreaterThan(20);
      const report = await migrate(db);
      expect(report.applied.map((m) => m.version)).toEqual(MIGRATIONS.map((m) => m.version));
      expect(await rowCounts(db)).toEqual(before);
      expect(await schemaStatus(db)).toEqual({ version: MIGRATIONS.at(-1)!.version, pending: [] });
      expect((await migrate(db)).applied).toEqual([]);
    } finally {
      await db.close();
    }
  });

  const added: Migration = {
    version: MIGRATIONS.at(-1)!.version + 1,
    name: 'test: a column with a default, filled from the rows',
    up: () => ['ALTER TABLE topics ADD COLUMN note TEXT', "UPDATE topics SET note = 'was ' || ymd"],
  };

  it('applies a new migration once, in order, even when two openers race', async () => {
    const [a, b] = [await siteDb(), await siteDb()];
    try {
      // Two nodes opening sites of one PostgreSQL database at once. Two SQLite connections in one
      // thread would wait on each other's write lock, so there they go one after the other.
      const list = [...MIGRATIONS, added];
      const reports =
        backend.name === 'postgres'
          ? await Promise.all([migrate(a, list), migrate(b, list)])
          : [await migrate(a, list), await migrate(b, list)];
      expect(reports.map((r) => r.applied.map((m) => m.version)).sort()).toEqual([[], [added.version]]);
      const rows = await a.all<{ ymd: string; note: string }>("SELECT ymd, note FROM topics WHERE tenant = 'old'");
      expect(rows.length).toBeGreaterThan(20);
      for (const r of rows) expect(r.note).toBe(`was ${r.ymd}`);
      expect(await a.all('SELECT version FROM schema_migrations WHERE version = ?', [added.version])).toHaveLength(1);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('refuses a database a newer smartcage migrated, and leaves nothing of a failed migration', async () => {
    const db = await siteDb();
    try {
      // This build does not know `added`: the database is newer than it.
      await expect(migrate(db)).rejects.toThrow(MigrationError);
      await expect(migrate(db)).rejects.toThrow(/schema version \d+, newer than this smartcage knows/);
      const broken: Migration = {
        version: added.version + 1,
        name: 'test: fails halfway',
        up: () => ['CREATE TABLE half_made (tenant TEXT NOT NULL)', 'SELECT no_such_column FROM topics'],
      };
      await expect(migrate(db, [...MIGRATIONS, added, broken])).rejects.toThrow(
        /migration \d+ \(test: fails halfway\) failed/,
      );
      expect((await schemaStatus(db)).version).toBe(added.version);
      await expect(db.get('SELECT COUNT(*) AS n FROM half_made')).rejects.toThrow();
    } finally {
      await db.close();
    }
  });

  it('opens a fresh database at the newest version', async () => {
    const db = await openDatabase({
      url: backend.name === 'postgres' ? await newPgDatabase() : null,
      sqlitePath: path.join(dir, 'fresh.sqlite'),
    });
    try {
      expect((await migrate(db)).applied.map((m) => m.version)).toEqual(MIGRATIONS.map((m) => m.version));
      expect((await schemaStatus(db)).pending).toEqual([]);
    } finally {
      await db.close();
    }
  });
});

it('keeps the baseline as first released (a change to a table is a new migration)', () => {
  for (const dialect of ['sqlite', 'postgres'] as const) {
    expect(
      createHash('sha256').update(MIGRATIONS[0]!.up(dialect).join('\n;\n')).digest('hex'),
      `migration 1 for ${dialect}: add a migration instead of editing src/site/schema/*.ts`,
    ).toBe(BASELINE_SHA256);
  }
});
