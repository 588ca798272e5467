/**
 * `smartcage site restore DIR BACKUP`: a backup (layout.ts) made into a site again, in a folder
 * that is empty or missing. Every entry is checked before anything is restored: a name outside
 * the three parts (`..`, absolute, backslashes), anything but a regular file, an archive past
 * MAX_BACKUP_BYTES, an entry missing from the manifest or the manifest's entry missing, or a
 * SHA-256 that differs refuses the backup and leaves the folder as it was. Then the folder's own
 * files go in place, the site is opened (its database made), the rows go in (one transaction,
 * under the site key of the restored site.json), and the files are written through the site's
 * FileStore. A database that already holds rows of that site key is refused: a restore never
 * mixes two sites' rows.
 */
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';
import tar from 'tar-stream';
import { parseVirtualPath } from '../../index.js';
import { openSite, type Site } from '../open-site.js';
import { isEmptyOrMissing, SITE_SUBFOLDERS } from '../init.js';
import type { SqlValue } from '../db/database.js';
import { MANIFEST, MAX_BACKUP_BYTES, backupTables, safeEntryName, type Manifest, type ManifestEntry } from './layout.js';

export class RestoreError extends Error {}

/** Extracts every entry into `staging`, hashing each; refuses what a backup never holds. */
async function extract(archive: string, staging: string): Promise<ManifestEntry[]> {
  const seen: ManifestEntry[] = [];
  let total = 0;
  const ex = tar.extract();
  const reading = pipeline(createReadStream(archive), ex);
  reading.catch(() => {});
  const refuse = (why: string) => new RestoreError(`${archive} is not a backup of this kind: ${why}`);
  for await (const entry of ex) {
    const { name, type, size } = entry.header;
    if (!safeEntryName(name)) throw refuse(`entry ${JSON.stringify(name.slice(0, 80))} is outside site/, files/ and db/`);
    if (type !== 'file') throw refuse(`entry ${name} is a ${type}, not a file`);
    if (seen.some((e) => e.name === name)) throw refuse(`entry ${name} is there twice`);
    total += size ?? 0;
    if (total > MAX_BACKUP_BYTES) throw refuse(`it holds more than ${MAX_BACKUP_BYTES >> 20} MiB`);
    const to = path.join(staging, name);
    mkdirSync(path.dirname(to), { recursive: true });
    const hash = createHash('sha256');
    let bytes = 0;
    await pipeline(entry, new Transform({ transform: (c: Buffer, _e, cb) => { hash.update(c); bytes += c.length; cb(null, c); } }), createWriteStream(to, { mode: 0o600 }));
    seen.push({ name, size: bytes, sha256: hash.digest('hex') });
  }
  await reading;
  return seen;
}

function check(seen: ManifestEntry[], staging: string, archive: string): Manifest {
  const file = path.join(staging, MANIFEST);
  if (!existsSync(file)) throw new RestoreError(`${archive} has no ${MANIFEST}`);
  let manifest: Manifest;
  try {
    manifest = JSON.parse(readFileSync(file, 'utf8')) as Manifest;
  } catch {
    throw new RestoreError(`${archive}: its ${MANIFEST} is not JSON`);
  }
  const listed = new Map(manifest.entries.map((e) => [e.name, e]));
  const found = seen.filter((e) => e.name !== MANIFEST);
  for (const e of found) {
    const m = listed.get(e.name);
    if (!m) throw new RestoreError(`${archive}: ${e.name} is not in the manifest`);
    if (m.sha256 !== e.sha256 || m.size !== e.size) throw new RestoreError(`${archive}: the checksum of ${e.name} does not match the manifest (the backup is damaged or was changed)`);
  }
  if (found.length !== listed.size) throw new RestoreError(`${archive}: ${listed.size - found.length} entries of the manifest are missing`);
  return manifest;
}

async function restoreRows(site: Site, staging: string, manifest: Manifest): Promise<void> {
  const known = new Set(backupTables());
  for (const t of manifest.tables) {
    if (!known.has(t.name)) throw new RestoreError(`the backup holds table ${t.name}, which this version of smartcage does not have`);
    const clash = await site.db.get(`SELECT 1 AS x FROM ${t.name} WHERE tenant = ? LIMIT 1`, [site.tenant]);
    if (clash) throw new RestoreError(`the database already holds rows of site "${site.tenant}" (table ${t.name}); restore into another database, or remove that site first`);
  }
  await site.db.transaction(async (tx) => {
    for (const t of manifest.tables) {
      const lines = createInterface({ input: createReadStream(path.join(staging, 'db', `${t.name}.jsonl`), 'utf8'), crlfDelay: Infinity });
      for await (const line of lines) {
        if (line === '') continue;
        const row = JSON.parse(line) as Record<string, SqlValue>;
        const cols = Object.keys(row);
        if (!cols.every((c) => /^\w+$/.test(c))) throw new RestoreError(`a row of ${t.name} names a column that is no column`);
        await tx.run(`INSERT INTO ${t.name} (tenant, ${cols.join(', ')}) VALUES (?${', ?'.repeat(cols.length)})`, [site.tenant, ...cols.map((c) => row[c]!)]);
      }
    }
  });
}

/** Moves a file or folder into place, merging into a folder that is there already. */
function moveInto(from: string, to: string): void {
  if (existsSync(to) && statSync(to).isDirectory() && statSync(from).isDirectory()) {
    for (const f of readdirSync(from)) moveInto(path.join(from, f), path.join(to, f));
    return;
  }
  renameSync(from, to);
}

/** Restores `archive` into `dir` (empty or missing); the restored site's key. */
export async function restoreSite(dir: string, archive: string): Promise<string> {
  if (!existsSync(archive)) throw new RestoreError(`${archive}: no such file`);
  if (!isEmptyOrMissing(dir)) throw new RestoreError(`${dir} is not empty: a backup is restored into an empty or new folder only`);
  const existed = existsSync(dir);
  mkdirSync(dir, { recursive: true });
  const staging = path.join(dir, '.restore');
  const undo = () => {
    if (existed) for (const f of readdirSync(dir)) rmSync(path.join(dir, f), { recursive: true, force: true });
    else rmSync(dir, { recursive: true, force: true });
  };
  let site: Site | undefined;
  try {
    const manifest = check(await extract(archive, staging).catch((e: unknown) => {
      if (e instanceof RestoreError) throw e;
      throw new RestoreError(`${archive} cannot be read as a tar archive (${(e as Error).message})`);
    }), staging, archive);
    const siteDir = path.join(staging, 'site');
    for (const sub of SITE_SUBFOLDERS) mkdirSync(path.join(dir, sub), { recursive: true });
    for (const f of existsSync(siteDir) ? readdirSync(siteDir) : []) moveInto(path.join(siteDir, f), path.join(dir, f));
    site = await openSite(dir);
    await restoreRows(site, staging, manifest);
    const store = site.host.files!(site.tenant);
    for (const e of manifest.entries) {
      if (e.name.startsWith('files/')) await store.writeAtomic(parseVirtualPath('/' + e.name), readFileSync(path.join(staging, e.name)));
    }
    const key = site.tenant;
    await site.close();
    site = undefined;
    rmSync(staging, { recursive: true, force: true });
    return key;
  } catch (e) {
    await site?.close();
    undo();
    throw e;
  }
}
