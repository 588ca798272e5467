/**
 * The content version (src/site/db/content-version.ts, D235): every write of content through
 * the site's database moves it on, with the write; bookkeeping writes and reads do not; another
 * handle on the same store sees it. Only on a site with an endpoint that keeps answers, the one
 * reader of the version: elsewhere writes leave it alone (D257).
 */
import { describe, expect, it } from 'vitest';
import { contentWrite, ContentVersion } from '../../../src/site/db/content-version.js';
import { openSite, type Site } from '../../../src/site/open-site.js';
import { eachBackend, sampleSite } from '../support/backends.js';
import { eventually } from '../../support/serve-process.js';

describe('contentWrite', () => {
  it('tells writes of content from reads and bookkeeping', () => {
    for (const sql of [
      'INSERT INTO topics (tenant, id) VALUES (?, ?)',
      '  update topic_texts SET subject = ? WHERE tenant = ?',
      'DELETE FROM favorites WHERE tenant = ?',
      'INSERT OR REPLACE INTO tags (tenant) VALUES (?)',
      'INSERT INTO topic_counters (tenant) SELECT tenant FROM topic_counters_pending',
      'WITH x AS (SELECT 1) UPDATE members SET a = 1',
      'CREATE TABLE t (a INTEGER)',
      'VACUUM',
    ])
      expect(contentWrite(sql), sql).toBe(true);
    for (const sql of [
      'SELECT * FROM topics WHERE tenant = ?',
      'select pg_advisory_xact_lock(1, hashtext(?))',
      'WITH x AS (SELECT 1) SELECT * FROM x',
      'INSERT INTO sessions (tenant) VALUES (?)',
      'DELETE FROM sessions WHERE tenant = ?',
      'UPDATE batch_queue SET state = ?',
      'INSERT INTO topic_counters_pending (tenant) VALUES (?)',
      'INSERT INTO content_versions (tenant, version) VALUES (?, 1)',
    ])
      expect(contentWrite(sql), sql).toBe(false);
  });
});

describe('ContentVersion', () => {
  it('reads the store again only after maxAgeMs, or at once after a write of its own', async () => {
    let reads = 0;
    let stored = 1;
    const clock = { ms: 0 };
    const db = {
      get: async () => (reads++, { version: stored }),
      all: async () => [],
      run: async () => ({ changes: 0 }),
    } as never;
    const v = new ContentVersion(db, 't', 100, () => clock.ms);
    expect(await v.current()).toBe(1);
    stored = 2;
    clock.ms = 99;
    expect(await v.current()).toBe(1);
    clock.ms = 100;
    expect(await v.current()).toBe(2);
    stored = 3;
    v.wrote();
    expect(await v.current()).toBe(3);
    expect(reads).toBe(3);
  });
});

/** site.json's `news` endpoint keeping its answers: what makes the site read its content version. */
const cachedNews = {
  edit: (config: Record<string, unknown>) => {
    const endpoints = config.endpoints as { path: string; cache?: { seconds: number } }[];
    endpoints.find((e) => e.path === 'news')!.cache = { seconds: 60 };
  },
};

/** The version row as stored, read past the site's handle. */
async function storedVersion(site: Site): Promise<number> {
  const row = await site.db.get<{ version: number | string }>('SELECT version FROM content_versions WHERE tenant = ?', [
    site.tenant,
  ]);
  return row ? Number(row.version) : 0;
}

eachBackend('the content version of a site', (backend) => {
  it('stays where it is on a site whose endpoints keep no answers: nothing reads it', async () => {
    const site = await sampleSite(backend);
    try {
      const v0 = await storedVersion(site);
      await site.db.run('UPDATE topic_texts SET subject = ? WHERE tenant = ? AND topic_id = ?', ['z', site.tenant, 1]);
      await site.db.transaction(async (tx) => {
        await tx.run('UPDATE topic_texts SET subject = ? WHERE tenant = ? AND topic_id = ?', ['x', site.tenant, 2]);
      });
      const written = await site.db.get<{ subject: string }>(
        'SELECT subject FROM topic_texts WHERE tenant = ? AND topic_id = ? ORDER BY lang LIMIT 1',
        [site.tenant, 2],
      );
      expect(written?.subject).toBe('x');
      expect(await storedVersion(site)).toBe(v0);
    } finally {
      await site.done();
    }
  });

  it('moves on once per transaction that writes content, with it; not for sessions, reads or a rollback', async () => {
    const site = await sampleSite(backend, cachedNews);
    try {
      const v0 = await site.contentVersion.current();
      await site.db.transaction(async (tx) => {
        await tx.run('UPDATE topic_texts SET subject = ? WHERE tenant = ? AND topic_id = ?', ['x', site.tenant, 1]);
        await tx.run('UPDATE topic_texts SET subject = ? WHERE tenant = ? AND topic_id = ?', ['y', site.tenant, 2]);
      });
      expect(await site.contentVersion.current()).toBe(v0 + 1);
      await site.db.run('UPDATE topic_texts SET subject = ? WHERE tenant = ? AND topic_id = ?', ['z', site.tenant, 1]);
      expect(await site.contentVersion.current()).toBe(v0 + 2);
      await site.db.run('DELETE FROM sessions WHERE tenant = ?', [site.tenant]);
      await site.db.all('SELECT * FROM topics WHERE tenant = ?', [site.tenant]);
      await expect(
        site.db.transaction(async (tx) => {
          await tx.run('UPDATE topic_texts SET subject = ? WHERE tenant = ?', ['gone', site.tenant]);
          throw new Error('no');
        }),
      ).rejects.toThrow('no');
      expect(await site.contentVersion.current()).toBe(v0 + 2);
    } finally {
      await site.done();
    }
  });

  it('a write through another handle on the same store is seen', async () => {
    const site = await sampleSite(backend, cachedNews);
    const other = await openSite(site.dir);
    try {
      const v0 = await site.contentVersion.current();
      await other.db.run('UPDATE topic_texts SET subject = ? WHERE tenant = ? AND topic_id = ?', ['n', site.tenant, 1]);
      expect(await eventually(async () => (await site.contentVersion.current()) === v0 + 1, 5000)).toBe(true);
    } finally {
      await other.close();
      await site.done();
    }
  });
});
