/**
 * A full backup and `site restore`, on both store backends: a site with data and files (text,
 * binary, nested), backed up and restored into an empty folder, has every table row and every
 * file byte for byte; a damaged backup (a changed byte, a missing entry, an entry outside the
 * three parts) and a non-empty folder are refused with nothing left behind.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  existsSync,
  mkdtempSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
  createReadStream,
  createWriteStream,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import tar from 'tar-stream';
import { eachBackend } from '../support/backends.js';
import { siteWith, type TestSite } from '../support/site-with.js';
import { openSite } from '../../../src/site/open-site.js';
import { restoreSite, RestoreError } from '../../../src/site/backups/restore.js';
import { backupTables } from '../../../src/site/backups/layout.js';
import { backupFile } from '../../../src/site/adapters/backups.js';
import { parseVirtualPath } from '../../../src/index.js';
import type { SiteDatabase } from '../../../src/site/db/database.js';
import { runCli } from '../../support/cli.js';

/** Every row of the tenant in every table, sorted, as the test reads them (not as the backup does). */
async function rowsOf(db: SiteDatabase, tenant: string): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const t of backupTables()) {
    const rows = await db.all(`SELECT * FROM ${t} WHERE tenant = ?`, [tenant]);
    out[t] = rows.map((r) => JSON.stringify(r)).sort();
  }
  return out;
}

/** Every file under `dir`, relative path -> bytes as hex. */
function filesOf(dir: string, rel = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const d of readdirSync(path.join(dir, rel), { withFileTypes: true })) {
    const child = path.join(rel, d.name);
    if (d.isDirectory()) Object.assign(out, filesOf(dir, child));
    else out[child] = readFileSync(path.join(dir, child)).toString('hex');
  }
  return out;
}

/** A copy of `archive` with entries changed (name -> new bytes, or null to drop it, or a new name). */
async function tamper(
  archive: string,
  out: string,
  change: (name: string, data: Buffer) => { name: string; data: Buffer } | null,
): Promise<void> {
  const ex = tar.extract();
  const pack = tar.pack();
  ex.on('entry', (header, stream, next) => {
    const chunks: Buffer[] = [];
    stream.on('data', (c) => chunks.push(c as Buffer));
    stream.on('end', () => {
      const r = change(header.name, Buffer.concat(chunks));
      if (r) pack.entry({ name: r.name, size: r.data.length }, r.data);
      next();
    });
  });
  ex.on('finish', () => pack.finalize());
  await Promise.all([pipeline(createReadStream(archive), ex), pipeline(pack, createWriteStream(out))]);
}

/** The operator's backup key: the secrets of the round trip are sealed with it. */
const KEY = Buffer.alloc(32, 7);

eachBackend('backup and restore', (backend) => {
  let site: TestSite;
  let archive: string;
  let work: string;
  let before: Record<string, unknown[]>;
  let filesBefore: Record<string, string>;
  const siteFiles = (dir: string) =>
    Object.fromEntries(
      Object.entries(filesOf(dir)).filter(
        ([f]) => !f.startsWith(`data${path.sep}`) || f === path.join('data', 'site-key'),
      ),
    );

  beforeAll(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'smartcage-restore-'));
    site = await siteWith(backend, {
      files: { 'functions/extra.tpl': 'extra {$x}\n', 'secrets.json': '{"K":{"value":"v"}}' },
    });
    const r = (src: string, memberId: number | null = null) =>
      site.engines.at(0).render(src, { identity: site.identity({ memberId }) });
    await r(
      '{update_counter value=77 topics_group_id=1 slug=7 ext_slug="view_count"}{sync_counter ids="7"}{write_file path="/files/user/a/b/notes.txt" var=p value="日本語 notes\\n"}{batch name="notify" ext_data=$smarty.now|@explode:"x"}',
    );
    const store = site.host.files!;
    await store.writeAtomic(
      parseVirtualPath('/files/ltd/bin/all-bytes.bin'),
      Uint8Array.from({ length: 256 }, (_, i) => i),
    );
    await store.writeAtomic(parseVirtualPath('/files/temp/empty.txt'), new Uint8Array(0));
    before = await rowsOf(site.db, site.tenant);
    filesBefore = siteFiles(site.dir);
    process.env.SMARTCAGE_BACKUP_KEY = KEY.toString('hex');
    const made = await site.host.backups!.create('round trip').finally(() => delete process.env.SMARTCAGE_BACKUP_KEY);
    archive = path.join(work, 'backup.tar');
    writeFileSync(archive, readFileSync(backupFile(site, made.id)));
  });
  afterAll(async () => {
    await site.done();
    rmSync(work, { recursive: true, force: true });
  });

  /** On PostgreSQL the site's rows go first, as when the site was lost: a restore never mixes two copies. */
  async function loseRows(): Promise<void> {
    if (backend.name !== 'postgres') return;
    for (const t of [...backupTables(), 'backups'].reverse())
      await site.db.run(`DELETE FROM ${t} WHERE tenant = ?`, [site.tenant]);
  }

  it('holds the rows and files, and lists the backup', async () => {
    expect(before.topic_counters!.length).toBeGreaterThan(0);
    expect(before.batch_queue!.length).toBe(1);
    expect(filesBefore[path.join('files', 'user', 'a', 'b', 'notes.txt')]).toBe(
      Buffer.from('日本語 notes\n').toString('hex'),
    );
    const list = await site.host.backups!.list();
    expect(list.map((b) => [b.memo, b.type, b.size > 1024])).toEqual([['round trip', 'full', true]]);
  });

  it('refuses a damaged backup, a changed or missing entry, an entry outside its parts, and a non-empty folder, leaving nothing', async () => {
    const cases: [string, (n: string, d: Buffer) => { name: string; data: Buffer } | null, RegExp][] = [
      [
        'changed',
        (n, d) => ({ name: n, data: n.endsWith('notes.txt') ? Buffer.concat([d, Buffer.from('x')]) : d }),
        /checksum of files\/user\/a\/b\/notes\.txt does not match/,
      ],
      [
        'missing',
        (n, d) => (n.startsWith('db/topics.') ? null : { name: n, data: d }),
        /entries of the manifest are missing/,
      ],
      [
        'escaping',
        (n, d) => ({ name: n.endsWith('notes.txt') ? '../../escaped.txt' : n, data: d }),
        /outside site\/, files\/ and db\//,
      ],
    ];
    for (const [label, change, message] of cases) {
      const bad = path.join(work, `${label}.tar`);
      await tamper(archive, bad, change);
      const target = path.join(work, `out-${label}`);
      await expect(restoreSite(target, bad, { database: backend.url, backupKey: KEY }), label).rejects.toThrow(message);
      expect(existsSync(target), label).toBe(false);
    }
    expect(existsSync(path.join(work, 'escaped.txt'))).toBe(false);
    const full = path.join(work, 'full');
    mkdirSync(full);
    writeFileSync(path.join(full, 'keep.txt'), 'mine');
    await expect(restoreSite(full, archive, { database: backend.url, backupKey: KEY })).rejects.toBeInstanceOf(
      RestoreError,
    );
    expect(readdirSync(full)).toEqual(['keep.txt']);
  });

  it('restores into an empty folder: every table row and every file byte for byte', async () => {
    await loseRows();
    // A row that cannot go in, in a late table, with checksums that agree: the rows before it are rolled back.
    const torn = path.join(work, 'torn.tar');
    const sha = (d: Buffer) => createHash('sha256').update(d).digest('hex');
    let patched: { size: number; sha256: string } | undefined;
    await tamper(archive, torn, (name, data) => {
      if (name === 'db/batch_runs.jsonl') {
        const bad = Buffer.concat([data, Buffer.from('{"no_such_column":1}\n')]);
        patched = { size: bad.length, sha256: sha(bad) };
        return { name, data: bad };
      }
      if (name !== 'manifest.json') return { name, data };
      const m = JSON.parse(data.toString()) as {
        entries: { name: string; size: number; sha256: string }[];
        tables: { name: string; rows: number }[];
      };
      Object.assign(
        m.entries.find((e) => e.name === 'db/batch_runs.jsonl')!,
        patched,
      );
      m.tables.find((t) => t.name === 'batch_runs')!.rows += 1;
      return { name, data: Buffer.from(JSON.stringify(m)) };
    });
    await expect(restoreSite(path.join(work, 'torn'), torn, { database: backend.url, backupKey: KEY })).rejects.toThrow(
      /no_such_column/,
    );
    expect(existsSync(path.join(work, 'torn'))).toBe(false);
    if (backend.name === 'postgres') expect(Object.values(await rowsOf(site.db, site.tenant)).flat()).toEqual([]);
    const target = path.join(work, 'restored');
    mkdirSync(target);
    expect(await restoreSite(target, archive, { database: backend.url, backupKey: KEY })).toEqual({
      siteKey: site.tenant,
      reset: [],
      missing: [],
    });
    const restored = await openSite(target);
    try {
      expect(await rowsOf(restored.db, restored.tenant)).toEqual(before);
      expect(siteFiles(target)).toEqual(filesBefore);
      const out = await restored.engines
        .at(0)
        .render(
          '{assign_topics_detail var=t topics_id=7}{$t.view_count} {read_file path="/files/user/a/b/notes.txt" row=l}{$l}{/read_file}',
          { identity: restored.identity() },
        );
      expect(out.output).toBe('77 日本語 notes');
    } finally {
      await restored.close();
    }
    if (backend.name === 'postgres') {
      // The database now holds that site again: a second restore of it is refused.
      await expect(
        restoreSite(path.join(work, 'twice'), archive, { database: backend.url, backupKey: KEY }),
      ).rejects.toThrow(/already knows site/);
      expect(existsSync(path.join(work, 'twice'))).toBe(false);
    }
  });
});

eachBackend('site restore on the command line', (backend) => {
  it('restores with exit 0, refuses a non-empty folder with exit 3', async () => {
    if (backend.name === 'postgres') return;
    const site = await siteWith(backend);
    const work = mkdtempSync(path.join(tmpdir(), 'smartcage-restore-cli-'));
    try {
      const made = await site.host.backups!.create('');
      const r = runCli(['site', 'restore', path.join(work, 'new'), backupFile(site, made.id)]);
      expect([r.status, r.stderr.split('\n')[0]]).toEqual([
        0,
        `site ${site.tenant} restored into ${path.join(work, 'new')}`,
      ]);
      const again = runCli(['site', 'restore', path.join(work, 'new'), backupFile(site, made.id)]);
      expect(again.status).toBe(3);
      expect(again.stderr).toMatch(/is not empty/);
    } finally {
      await site.done();
      rmSync(work, { recursive: true, force: true });
    }
  }, 60_000);
});
