/**
 * Backups and the site's secrets (issue 33, finding 2), on both backends: without the operator's
 * backup key, secrets.json and data/site-key are not in the archive and a restore says what is
 * missing; with it, they are sealed (AES-256-GCM): neither the secret values nor the site key's
 * bytes appear anywhere in the archive, a restore without the key or with another key is refused
 * before anything is written, and with the key they come back byte for byte.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eachBackend } from '../support/backends.js';
import { siteWith, type TestSite } from '../support/site-with.js';
import { restoreSite } from '../../../src/site/backups/restore.js';
import { backupFile } from '../../../src/site/adapters/backups.js';
import { BackupKeyError, parseBackupKey, seal, unseal } from '../../../src/site/backups/sealed.js';
import { runCli } from '../../support/cli.js';

const KEY = Buffer.from('00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff', 'hex');
const SECRET = 'xoxb-very-secret-token-4711';

/** A backup of `site` made with the backup key in the host's environment, or none. */
async function backupWith(site: TestSite, key: Buffer | null): Promise<Buffer> {
  if (key) process.env.SMARTCAGE_BACKUP_KEY = key.toString('base64');
  try {
    const made = await site.host.backups!.create('');
    return readFileSync(backupFile(site, made.id));
  } finally {
    delete process.env.SMARTCAGE_BACKUP_KEY;
  }
}

eachBackend("backups seal the site's secrets", (backend) => {
  let site: TestSite;
  let work: string;
  let siteKey: Buffer;
  beforeAll(async () => {
    site = await siteWith(backend, { files: { 'secrets.json': JSON.stringify({ SLACK: { value: SECRET } }) } });
    work = mkdtempSync(path.join(tmpdir(), 'smartcage-sealed-'));
    siteKey = readFileSync(path.join(site.dir, 'data', 'site-key'));
  });
  afterAll(async () => {
    await site.done();
    rmSync(work, { recursive: true, force: true });
  });

  it('without a key: the secrets are left out, and the restore says so and makes a new site key', async () => {
    const tarBytes = await backupWith(site, null);
    expect(tarBytes.includes(SECRET)).toBe(false);
    expect(tarBytes.includes(siteKey)).toBe(false);
    expect(tarBytes.includes('site/secrets.json')).toBe(false);
    const file = path.join(work, 'plain.tar');
    writeFileSync(file, tarBytes);
    // Restored into the folder's own SQLite: the operator's database is not the original's.
    const target = path.join(work, 'plain');
    const r = await restoreSite(target, file, { database: null });
    expect(r.missing).toEqual(['secrets.json', 'data/site-key']);
    expect(existsSync(path.join(target, 'secrets.json'))).toBe(false);
    const made = readFileSync(path.join(target, 'data', 'site-key'));
    expect([made.length, made.equals(siteKey)]).toEqual([32, false]);
  });

  it('with a key: sealed in the archive; refused without it or with another; restored byte for byte with it', async () => {
    const tarBytes = await backupWith(site, KEY);
    expect(tarBytes.includes(SECRET)).toBe(false);
    expect(tarBytes.includes(siteKey)).toBe(false);
    expect(tarBytes.includes('site/secrets.json.sealed')).toBe(true);
    const file = path.join(work, 'sealed.tar');
    writeFileSync(file, tarBytes);
    await expect(restoreSite(path.join(work, 'nokey'), file, { database: null })).rejects.toThrow(
      /holds secrets.json and data\/site-key encrypted: give the backup key/,
    );
    expect(existsSync(path.join(work, 'nokey'))).toBe(false);
    await expect(
      restoreSite(path.join(work, 'other'), file, { database: null, backupKey: Buffer.alloc(32, 1) }),
    ).rejects.toThrow(/the backup key does not open secrets.json/);
    expect(existsSync(path.join(work, 'other'))).toBe(false);
    const target = path.join(work, 'sealed');
    expect((await restoreSite(target, file, { database: null, backupKey: KEY })).missing).toEqual([]);
    expect(JSON.parse(readFileSync(path.join(target, 'secrets.json'), 'utf8')).SLACK.value).toBe(SECRET);
    expect(readFileSync(path.join(target, 'data', 'site-key')).equals(siteKey)).toBe(true);
  });
});

describe('the backup key', () => {
  it('is 32 bytes as raw bytes, hex or base64; anything else is refused', () => {
    for (const form of [KEY, KEY.toString('hex'), KEY.toString('hex') + '\n', KEY.toString('base64')])
      expect(parseBackupKey(form, 'k').equals(KEY)).toBe(true);
    for (const bad of ['', 'short', KEY.toString('hex').slice(2), Buffer.alloc(31)])
      expect(() => parseBackupKey(bad, 'k')).toThrow(BackupKeyError);
  });

  it('binds a sealed file to its site key and name: moved to another site or file, it does not open', () => {
    const sealed = seal(KEY, 'site-a', 'secrets.json', Buffer.from('{}'));
    expect(unseal(KEY, 'site-a', 'secrets.json', sealed)?.toString()).toBe('{}');
    expect(unseal(KEY, 'site-b', 'secrets.json', sealed)).toBeNull();
    expect(unseal(KEY, 'site-a', 'data/site-key', sealed)).toBeNull();
    const flipped = Buffer.from(sealed);
    flipped[20]! ^= 1;
    expect(unseal(KEY, 'site-a', 'secrets.json', flipped)).toBeNull();
  });

  it('site restore --backup-key-file opens a sealed backup; without it, one line and exit 3', async () => {
    const site = await siteWith({ name: 'sqlite', url: null }, { files: { 'secrets.json': '{}' } });
    const work = mkdtempSync(path.join(tmpdir(), 'smartcage-sealed-cli-'));
    try {
      const file = path.join(work, 'b.tar');
      writeFileSync(file, await backupWith(site, KEY));
      const keyFile = path.join(work, 'backup.key');
      writeFileSync(keyFile, KEY.toString('hex') + '\n');
      const refused = runCli(['site', 'restore', path.join(work, 'a'), file]);
      expect([refused.status, refused.stderr.trimEnd().split('\n').length]).toEqual([3, 1]);
      expect(refused.stderr).toMatch(/give the backup key \(--backup-key-file FILE or SMARTCAGE_BACKUP_KEY\)/);
      const ok = runCli(['site', 'restore', path.join(work, 'b'), file, '--backup-key-file', keyFile]);
      expect([ok.status, ok.stderr]).toEqual([0, `site ${site.tenant} restored into ${path.join(work, 'b')}\n`]);
    } finally {
      await site.done();
      rmSync(work, { recursive: true, force: true });
    }
  }, 60_000);
});
