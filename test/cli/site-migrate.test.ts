/** `smartcage site migrate DIR [--status]` as an operator runs it: status, upgrade, and refusals in one line. */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { initSite } from '../../src/site/init.js';
import { SQLITE_FILE } from '../../src/site/db/database.js';
import { MIGRATIONS, SCHEMA_VERSION } from '../../src/site/schema/index.js';

let base: string;
let dir: string;
const sql = (statement: string) => {
  const db = new DatabaseSync(path.join(dir, SQLITE_FILE));
  try {
    db.exec(statement);
  } finally {
    db.close();
  }
};

beforeAll(async () => {
  base = mkdtempSync(path.join(tmpdir(), 'smartcage-migrate-cli-'));
  dir = path.join(base, 'shop');
  await initSite(dir);
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('smartcage site migrate', () => {
  it('says a new site is at this version, with nothing pending', () => {
    const r = runCli(['site', 'migrate', dir, '--status']);
    expect([r.status, r.stdout]).toEqual([0, '']);
    expect(r.stderr).toContain(`schema version ${SCHEMA_VERSION}; this smartcage's is ${SCHEMA_VERSION}; 0 pending`);
  });

  it('lists and then applies what a database made before versioning lacks', () => {
    sql('DROP TABLE schema_migrations');
    const status = runCli(['site', 'migrate', dir, '--status']);
    expect(status.stdout).toBe(MIGRATIONS.map((m) => `${m.version} ${m.name}\n`).join(''));
    const r = runCli(['site', 'migrate', dir]);
    expect([r.status, r.stdout]).toEqual([0, MIGRATIONS.map((m) => `${m.version} ${m.name}\n`).join('')]);
    expect(runCli(['site', 'migrate', dir]).stderr).toContain('nothing to do');
  });

  it('refuses a database a newer smartcage migrated, in one line with exit 3', () => {
    sql(
      `INSERT INTO schema_migrations (version, name, applied_at) VALUES (${SCHEMA_VERSION + 41}, 'from the future', 0)`,
    );
    const r = runCli(['site', 'migrate', dir]);
    expect(r.status).toBe(3);
    expect(r.stderr.trim().split('\n')).toEqual([
      `smartcage site migrate: the site database is at schema version ${SCHEMA_VERSION + 41}, newer than this smartcage knows (${SCHEMA_VERSION}): upgrade smartcage`,
    ]);
  });

  it('names the folder when it holds no site', () => {
    const r = runCli(['site', 'migrate', path.join(base, 'nothing')]);
    expect(r.status).toBe(3);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('nothing');
  });
});

describe('smartcage site init with a database it cannot reach', () => {
  it('says so in one line with exit 3, leaves no folder, and the retry is not refused', () => {
    const target = path.join(base, 'unreachable');
    // Port 1 on loopback: nothing listens there.
    const r = runCli(['site', 'init', target, '--database', 'postgres://u:secret@127.0.0.1:1/db']);
    expect(r.status).toBe(3);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(
      /^smartcage site init: the database postgres:\/\/u:\*\*\*@127\.0\.0\.1:1\/db cannot be used \(.*\): start it or fix --database; nothing was written\n$/,
    );
    expect(existsSync(target)).toBe(false);
    expect(runCli(['site', 'init', target]).status).toBe(0);
  });
});
