/**
 * Hand-made backups against `site restore` (issue 33, finding 1 and 5), on both backends: an archive
 * that names an existing tenant's site key and the shared database, with only a table where that
 * tenant has no rows (a planted `sessions` row, a static `api_tokens` row); a manifest whose site
 * key is not its site.json's; a manifest whose `entries` is not a list; 20,000 empty entries; a row
 * the database refuses. Each is refused before anything is written (or, where the archive tried to
 * choose the database, restored where the operator said), and the command line says it in one line
 * with exit 3.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { createWriteStream, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import tar from 'tar-stream';
import { eachBackend } from '../support/backends.js';
import { siteWith, type TestSite } from '../support/site-with.js';
import { restoreSite } from '../../../src/site/backups/restore.js';
import { openSite } from '../../../src/site/open-site.js';
import { runCli } from '../../support/cli.js';

const sha = (d: Buffer) => createHash('sha256').update(d).digest('hex');

interface Forged {
  siteJson: Record<string, unknown>;
  /** Rows by table, as a backup holds them (no `tenant`). */
  tables?: Record<string, Record<string, unknown>[]>;
  /** Changes to the manifest after it is made (it may then be anything). */
  manifest?: (m: Record<string, unknown>) => unknown;
  /** Further entries (name, bytes). */
  extra?: [string, Buffer][];
}

/** Writes a backup as an attacker would make it by hand: consistent checksums, anything else chosen. */
async function forge(file: string, f: Forged): Promise<void> {
  const entries: [string, Buffer][] = [['site/site.json', Buffer.from(JSON.stringify(f.siteJson))], ...(f.extra ?? [])];
  const tables = Object.entries(f.tables ?? {}).map(([name, rows]) => {
    entries.push([`db/${name}.jsonl`, Buffer.from(rows.map((r) => JSON.stringify(r) + '\n').join(''))]);
    return { name, rows: rows.length };
  });
  const made: Record<string, unknown> = {
    format: 2,
    engine: 'x',
    site_key: f.siteJson.site_key,
    created: 1,
    backend: 'postgres',
    tables,
    entries: entries.map(([name, data]) => ({ name, size: data.length, sha256: sha(data) })),
    sealed: [],
    left_out: [],
  };
  const manifest = f.manifest ? f.manifest(made) : made;
  const pack = tar.pack();
  const out = pipeline(pack, createWriteStream(file));
  for (const [name, data] of [...entries, ['manifest.json', Buffer.from(JSON.stringify(manifest))] as [string, Buffer]])
    pack.entry({ name, size: data.length }, data);
  pack.finalize();
  await out;
}

const siteJsonOf = (key: string, database: string | null) => ({
  site_key: key,
  timezone: 'Asia/Tokyo',
  lang: 'ja',
  database,
});
const now = Math.floor(Date.now() / 1000);
const plantedSession = {
  id_hash: sha(Buffer.from('attacker-cookie')),
  member_id: 1,
  token_hash: sha(Buffer.from('attacker-token')),
  created: now,
  expires: now + 30 * 86400,
};
const plantedToken = {
  token_hash: sha(Buffer.from('static-known')),
  api_id: 1,
  type: 'static',
  member_id: null,
  token: 'static-known',
  memo: '',
  created: now,
  expires: now + 365 * 86400,
};

eachBackend('site restore trusts nothing in the archive', (backend) => {
  let victim: TestSite;
  let work: string;
  beforeAll(async () => {
    victim = await siteWith(backend);
    work = mkdtempSync(path.join(tmpdir(), 'smartcage-restore-attack-'));
  });
  afterAll(async () => {
    await victim.done();
    rmSync(work, { recursive: true, force: true });
  });
  const victimRows = async (table: string) =>
    (await victim.db.all(`SELECT * FROM ${table} WHERE tenant = ?`, [victim.tenant])).length;

  it('refuses a planted sessions or api_tokens row under an existing site key, before any write', async () => {
    // The archive names the victim's key and database and lists only a table where the victim has no rows.
    for (const [table, row] of [
      ['sessions', plantedSession],
      ['api_tokens', plantedToken],
    ] as const) {
      const file = path.join(work, `plant-${table}.tar`);
      await forge(file, { siteJson: siteJsonOf(victim.tenant, backend.url), tables: { [table]: [row] } });
      const before = await victimRows(table);
      const target = path.join(work, `out-${table}`);
      if (backend.name === 'postgres') {
        // The operator restores into the shared database: the key is known there (members, topics...).
        await expect(restoreSite(target, file, { database: backend.url })).rejects.toThrow(
          new RegExp(`already knows site "${victim.tenant}"`),
        );
        expect(existsSync(target)).toBe(false);
      } else {
        // SQLite: the operator's database is the new folder's own; the victim's file is not touched.
        expect((await restoreSite(target, file, { database: null })).siteKey).toBe(victim.tenant);
        expect(JSON.parse(readFileSync(path.join(target, 'site.json'), 'utf8')).database).toBeNull();
      }
      expect(await victimRows(table)).toBe(before);
      if (table === 'sessions')
        expect(
          await victim.db.get('SELECT 1 AS x FROM sessions WHERE id_hash = ?', [plantedSession.id_hash]),
        ).toBeUndefined();
    }
  });

  it("restores into the operator's database, never the one the archive names", async () => {
    // The archive names the database; the operator gives none: the rows go into the folder's SQLite.
    const file = path.join(work, 'chooser.tar');
    await forge(file, {
      siteJson: {
        ...siteJsonOf('chooser-' + backend.name, 'postgres://attacker@10.0.0.1/db'),
        storage: { type: 's3', bucket: 'b', region: 'r', access_key_secret: 'a', secret_key_secret: 's' },
        batch_queue: 'redis://10.0.0.1',
      },
      tables: { sessions: [plantedSession] },
    });
    const target = path.join(work, 'chooser');
    const r = await restoreSite(target, file, { database: null });
    expect(r.reset.sort()).toEqual(['batch_queue', 'storage']);
    const json = JSON.parse(readFileSync(path.join(target, 'site.json'), 'utf8'));
    expect([json.database, json.storage, json.batch_queue]).toEqual([null, { type: 'local' }, null]);
    const restored = await openSite(target);
    try {
      expect(restored.db.dialect).toBe('sqlite');
      expect((await restored.db.all('SELECT * FROM sessions WHERE tenant = ?', [restored.tenant])).length).toBe(1);
    } finally {
      await restored.close();
    }
  });

  it('refuses a key that only another site names as its child site', async () => {
    if (backend.name !== 'postgres') return;
    await victim.db.run(
      "INSERT INTO child_sites (tenant, site_key, names, url, lang, timezone, inst_at) VALUES (?, 'adopted-x', '[]', 'http://x', 'ja', 'Asia/Tokyo', 1)",
      [victim.tenant],
    );
    const file = path.join(work, 'adopted.tar');
    await forge(file, { siteJson: siteJsonOf('adopted-x', null), tables: { sessions: [plantedSession] } });
    await expect(restoreSite(path.join(work, 'adopted'), file, { database: backend.url })).rejects.toThrow(
      /already knows site "adopted-x" \(child_sites\.site_key\)/,
    );
    await victim.db.run("DELETE FROM child_sites WHERE tenant = ? AND site_key = 'adopted-x'", [victim.tenant]);
  });

  it('refuses a manifest of another site key than its site.json, a bad manifest and a row of another shape, writing nothing', async () => {
    const cases: [string, Forged, RegExp][] = [
      [
        'key',
        { siteJson: siteJsonOf('mine', null), manifest: (m) => ({ ...m, site_key: 'theirs' }) },
        /manifest is of site "theirs" but its site.json names "mine"/,
      ],
      [
        'entries',
        { siteJson: siteJsonOf('mine', null), manifest: (m) => ({ ...m, entries: { 'site/site.json': 1 } }) },
        /has no list of entries/,
      ],
      [
        'shape',
        {
          siteJson: siteJsonOf('mine', null),
          manifest: (m) => ({ ...m, entries: [{ name: 'site/site.json', size: '1', sha256: 'x' }] }),
        },
        /an entry without a name, size and SHA-256/,
      ],
      [
        'table',
        { siteJson: siteJsonOf('mine', null), manifest: (m) => ({ ...m, tables: [{ name: 'pg_authid', rows: 1 }] }) },
        /table "pg_authid", which this version/,
      ],
      [
        'tenant',
        { siteJson: siteJsonOf('mine', null), tables: { sessions: [{ ...plantedSession, tenant: victim.tenant }] } },
        /names column "tenant"/,
      ],
      [
        'count',
        {
          siteJson: siteJsonOf('mine', null),
          tables: { sessions: [plantedSession] },
          manifest: (m) => ({ ...m, tables: [{ name: 'sessions', rows: 0 }] }),
        },
        /more rows than the manifest's 0/,
      ],
    ];
    for (const [label, forged, message] of cases) {
      const file = path.join(work, `bad-${label}.tar`);
      await forge(file, forged);
      const target = path.join(work, `bad-${label}`);
      await expect(restoreSite(target, file, { database: backend.url }), label).rejects.toThrow(message);
      expect(existsSync(target), label).toBe(false);
    }
  });

  it('stops reading a backup of 20,000 empty entries at the entry cap, having written nothing', async () => {
    const file = path.join(work, 'many.tar');
    const extra: [string, Buffer][] = Array.from({ length: 20_000 }, (_, i) => [
      `files/user/e${i}.txt`,
      Buffer.alloc(0),
    ]);
    await forge(file, { siteJson: siteJsonOf('many', null), extra });
    const target = path.join(work, 'many');
    const started = performance.now();
    await expect(restoreSite(target, file, { database: backend.url })).rejects.toThrow(/holds more than 10000 entries/);
    console.log(`[bench] 20,000 empty entries refused in ${Math.round(performance.now() - started)} ms`);
    expect(existsSync(target)).toBe(false);
  });
});

describe('site restore on the command line: every failure one line, exit 3', () => {
  it('a manifest whose entries is not a list, and a row the database refuses (a duplicate key)', async () => {
    const work = mkdtempSync(path.join(tmpdir(), 'smartcage-restore-cli-attack-'));
    try {
      const notList = path.join(work, 'not-list.tar');
      await forge(notList, {
        siteJson: siteJsonOf('cli-a', null),
        manifest: (m) => ({ ...m, entries: 'all of them' }),
      });
      const dup = path.join(work, 'dup.tar');
      await forge(dup, { siteJson: siteJsonOf('cli-b', null), tables: { sessions: [plantedSession, plantedSession] } });
      for (const [file, message] of [
        [notList, /has no list of entries/],
        [dup, /row 2 of sessions cannot go in: .*UNIQUE constraint failed/],
      ] as const) {
        const r = runCli(['site', 'restore', path.join(work, path.basename(file, '.tar')), file]);
        expect(r.status).toBe(3);
        expect(r.stderr).toMatch(message);
        expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
        expect(r.stderr).not.toMatch(/\n\s+at /);
      }
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }, 60_000);
});
