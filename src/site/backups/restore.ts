/**
 * `smartcage site restore DIR BACKUP`: a backup (layout.ts) made into a site again, in a folder
 * that is empty or missing. The archive is untrusted: anyone may hand-make one (D155).
 *
 * 1. Read: the archive is read once without writing anything. Every entry's name (inside the three
 *    parts: no `..`, absolute or backslash), type (regular files only), the entry count (at most
 *    MAX_BACKUP_ENTRIES: reading stops at the first one past it) and the total size are checked,
 *    each entry is hashed, and the manifest and site.json are kept in memory (MAX_MANIFEST_BYTES).
 * 2. Validate: the manifest is decoded (manifest.ts: shapes, entry cap, sizes, tables), then every
 *    entry's size and SHA-256 are compared with it; its site key must be the site key of its own
 *    site.json; sealed secrets need the operator's backup key, which must open them.
 * 3. The target: the database is the operator's (RestoreOptions.database: `--database` or
 *    SMARTCAGE_RESTORE_DATABASE; default the new folder's SQLite), never the archive's site.json,
 *    whose `database`, `storage` and `batch_queue` are dropped: a restored site writes where the
 *    operator says. A site key that is already in that database, in any table (catalog.ts), is
 *    refused before anything is written.
 * 4. Only then: the archive is extracted into the folder's staging area (each entry checked against
 *    the manifest again as it is written, since the file may have changed since step 1), the
 *    folder's files go in place, the rows go in (one transaction, which checks the site key again
 *    under a lock; each row a JSON object of the table's own columns and plain values), and the
 *    files are written through the site's FileStore.
 *
 * Any failure is a RestoreError (one sentence) and the folder is left as it was.
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  createReadStream,
  createWriteStream,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';
import tar from 'tar-stream';
import { parseVirtualPath } from '../../index.js';
import { openSite, type Site } from '../open-site.js';
import { isEmptyOrMissing, SITE_SUBFOLDERS } from '../init.js';
import { parseSiteConfig, SiteConfigError } from '../config.js';
import { openDatabase, SQLITE_FILE, type SqlRunner, type SqlValue } from '../db/database.js';
import {
  MANIFEST,
  MAX_BACKUP_BYTES,
  MAX_BACKUP_ENTRIES,
  MAX_MANIFEST_BYTES,
  SEALED_SUFFIX,
  safeEntryName,
  type SecretFile,
} from './layout.js';
import { decodeManifest, type Manifest, type ManifestEntry } from './manifest.js';
import { siteKeyInUse, tableColumns } from './catalog.js';
import { unseal } from './sealed.js';

export class RestoreError extends Error {}

export interface RestoreOptions {
  /** The target database: a postgres:// URL, or null for SQLite in the new folder. */
  database: string | null;
  /** The operator's backup key (sealed.ts): needed when the backup holds sealed secrets. */
  backupKey?: Buffer | null;
  /** Entries a backup may hold (default MAX_BACKUP_ENTRIES). */
  maxEntries?: number;
}

export interface Restored {
  siteKey: string;
  /** site.json settings the backup named and the restore made local (`storage`, `batch_queue`). */
  reset: string[];
  /** Secret files the backup did not hold (made without a backup key): what the operator must supply. */
  missing: SecretFile[];
}

/**
 * Where a site writes, as site.json says: the operator's to choose, never the archive's. A restore
 * sets `database` to the operator's and makes the others local again.
 */
const PLACES: Readonly<Record<'storage' | 'batch_queue', unknown>> = { storage: { type: 'local' }, batch_queue: null };

interface Scan {
  entries: ManifestEntry[];
  /** The entries read into memory: manifest.json, site/site.json and the sealed secrets. */
  kept: Map<string, Buffer>;
}

/** Entries a restore reads before anything is written. */
const kept = (name: string): boolean =>
  name === MANIFEST || name === 'site/site.json' || (name.startsWith('site/') && name.endsWith(SEALED_SUFFIX));

/** Step 1: every entry checked and hashed, nothing written; the manifest and site.json kept. */
async function scan(archive: string, maxEntries: number): Promise<Scan> {
  const out: Scan = { entries: [], kept: new Map() };
  const seen = new Set<string>();
  let total = 0;
  const ex = tar.extract();
  const reading = pipeline(createReadStream(archive), ex);
  reading.catch(() => {});
  const refuse = (why: string) => new RestoreError(`${archive} is not a backup of this kind: ${why}`);
  try {
    for await (const entry of ex) {
      const { name, type, size } = entry.header;
      if (seen.size >= maxEntries) throw refuse(`it holds more than ${maxEntries} entries (--max-entries)`);
      if (!safeEntryName(name))
        throw refuse(`entry ${JSON.stringify(name.slice(0, 80))} is outside site/, files/ and db/`);
      if (type !== 'file') throw refuse(`entry ${name} is a ${type}, not a file`);
      if (seen.has(name)) throw refuse(`entry ${name} is there twice`);
      seen.add(name);
      total += size ?? 0;
      if (total > MAX_BACKUP_BYTES) throw refuse(`it holds more than ${MAX_BACKUP_BYTES >> 20} MiB`);
      const keep = kept(name);
      if (keep && (size ?? 0) > MAX_MANIFEST_BYTES)
        throw refuse(`${name} is larger than ${MAX_MANIFEST_BYTES >> 20} MiB`);
      const hash = createHash('sha256');
      const chunks: Buffer[] = [];
      let bytes = 0;
      for await (const c of entry as AsyncIterable<Buffer>) {
        hash.update(c);
        bytes += c.length;
        if (keep) chunks.push(c);
      }
      out.entries.push({ name, size: bytes, sha256: hash.digest('hex') });
      if (keep) out.kept.set(name, Buffer.concat(chunks));
    }
    await reading;
  } catch (e) {
    ex.destroy();
    if (e instanceof RestoreError) throw e;
    throw new RestoreError(`${archive} cannot be read as a tar archive (${firstLine(e)})`);
  }
  return out;
}

function parseJson(data: Buffer | undefined): unknown {
  if (data === undefined) return undefined;
  try {
    return JSON.parse(data.toString('utf8'));
  } catch {
    return undefined;
  }
}

/** Step 2: the manifest decoded, the entries compared with it, site.json's key compared with the manifest's. */
function validate(
  found: Scan,
  archive: string,
  maxEntries: number,
): { manifest: Manifest; siteJson: Record<string, unknown> } {
  if (!found.kept.has(MANIFEST)) throw new RestoreError(`${archive} has no ${MANIFEST}`);
  const json = parseJson(found.kept.get(MANIFEST));
  if (json === undefined) throw new RestoreError(`${archive}: its ${MANIFEST} is not JSON`);
  const decoded = decodeManifest(json, maxEntries);
  if (!decoded.ok) throw new RestoreError(`${archive}: ${decoded.why}`);
  const { manifest } = decoded;
  const listed = new Map(manifest.entries.map((e) => [e.name, e]));
  const entries = found.entries.filter((e) => e.name !== MANIFEST);
  for (const e of entries) {
    const m = listed.get(e.name);
    if (!m) throw new RestoreError(`${archive}: ${e.name} is not in the manifest`);
    if (m.sha256 !== e.sha256 || m.size !== e.size)
      throw new RestoreError(
        `${archive}: the checksum of ${e.name} does not match the manifest (the backup is damaged or was changed)`,
      );
  }
  if (entries.length !== listed.size)
    throw new RestoreError(`${archive}: ${listed.size - entries.length} entries of the manifest are missing`);
  const site = parseJson(found.kept.get('site/site.json'));
  if (typeof site !== 'object' || site === null || Array.isArray(site))
    throw new RestoreError(`${archive}: its site/site.json is not a JSON object`);
  const siteJson = site as Record<string, unknown>;
  if (siteJson.site_key !== manifest.site_key) {
    throw new RestoreError(
      `${archive}: its manifest is of site "${manifest.site_key}" but its site.json names ${JSON.stringify(siteJson.site_key)?.slice(0, 70)}; a backup is restored as the site it was made of`,
    );
  }
  return { manifest, siteJson };
}

/** The sealed secrets opened with the operator's key, before anything is written. */
function openSealed(
  manifest: Manifest,
  archive: string,
  key: Buffer | null | undefined,
  found: Scan,
): Map<SecretFile, Buffer> {
  const out = new Map<SecretFile, Buffer>();
  if (manifest.sealed.length === 0) return out;
  if (!key)
    throw new RestoreError(
      `${archive} holds ${manifest.sealed.join(' and ')} encrypted: give the backup key (--backup-key-file FILE or SMARTCAGE_BACKUP_KEY)`,
    );
  for (const f of manifest.sealed) {
    const plain = unseal(key, manifest.site_key, f, found.kept.get(`site/${f}${SEALED_SUFFIX}`)!);
    if (!plain)
      throw new RestoreError(`${archive}: the backup key does not open ${f} (another key, or the backup was changed)`);
    out.set(f, plain);
  }
  return out;
}

/** Step 4: extracts every entry into `staging`, each checked against the manifest again. */
async function stage(archive: string, staging: string, manifest: Manifest): Promise<void> {
  const listed = new Map(manifest.entries.map((e) => [e.name, e]));
  const ex = tar.extract();
  const reading = pipeline(createReadStream(archive), ex);
  reading.catch(() => {});
  const changed = (name: string) => new RestoreError(`${archive} changed while it was restored (${name.slice(0, 80)})`);
  try {
    for await (const entry of ex) {
      const { name } = entry.header;
      if (name === MANIFEST) {
        entry.resume();
        continue;
      }
      const m = listed.get(name);
      if (!m || entry.header.type !== 'file' || entry.header.size !== m.size) throw changed(name);
      const to = path.join(staging, name);
      mkdirSync(path.dirname(to), { recursive: true });
      const hash = createHash('sha256');
      await pipeline(
        entry,
        new Transform({
          transform: (c: Buffer, _e, cb) => {
            hash.update(c);
            cb(null, c);
          },
        }),
        createWriteStream(to, { mode: 0o600 }),
      );
      if (hash.digest('hex') !== m.sha256) throw changed(name);
    }
    await reading;
  } catch (e) {
    ex.destroy();
    if (e instanceof RestoreError) throw e;
    throw new RestoreError(`${archive} cannot be read as a tar archive (${firstLine(e)})`);
  }
}

/** Step 3: the site key is nowhere in the operator's database; nothing is written (no tables are made). */
async function refuseKnownSiteKey(dir: string, database: string | null, siteKey: string): Promise<void> {
  mkdirSync(path.join(dir, 'data'), { recursive: true });
  const db = await openDatabase({ url: database, sqlitePath: path.join(dir, SQLITE_FILE) }).catch((e: unknown) => {
    throw new RestoreError(`cannot open the target database (${firstLine(e)})`);
  });
  try {
    const where = await siteKeyInUse(db, db.dialect, siteKey);
    if (where)
      throw new RestoreError(
        `the target database already knows site "${siteKey}" (${where}); restore into another database, or remove that site first`,
      );
  } finally {
    await db.close();
  }
}

/** One row of a table's export: an object of the table's own columns (never `tenant`) and plain values. */
function decodeRow(line: string, table: string, columns: Set<string>): Record<string, SqlValue> {
  const bad = (why: string) => new RestoreError(`a row of ${table} ${why}`);
  let row: unknown;
  try {
    row = JSON.parse(line);
  } catch {
    throw bad('is not JSON');
  }
  if (typeof row !== 'object' || row === null || Array.isArray(row)) throw bad('is not an object');
  const out: Record<string, SqlValue> = {};
  for (const [c, v] of Object.entries(row)) {
    if (c === 'tenant' || !columns.has(c))
      throw bad(`names column ${JSON.stringify(c.slice(0, 60))}, which the table does not have`);
    if (v !== null && typeof v !== 'string' && typeof v !== 'number') throw bad(`holds a ${typeof v} in ${c}`);
    out[c] = v;
  }
  return out;
}

async function restoreRows(site: Site, staging: string, manifest: Manifest): Promise<void> {
  const columns = await tableColumns(site.db, site.db.dialect);
  await site.db.transaction(async (tx: SqlRunner) => {
    // Two restores of one key at once: the second waits here, then finds the first one's rows.
    if (site.db.dialect === 'postgres')
      await tx.run('SELECT pg_advisory_xact_lock(7317002, hashtext(?))', [site.tenant]);
    const where = await siteKeyInUse(tx, site.db.dialect, site.tenant);
    if (where)
      throw new RestoreError(
        `the target database already knows site "${site.tenant}" (${where}); restore into another database, or remove that site first`,
      );
    for (const t of manifest.tables) {
      const cols = columns.get(t.name);
      if (!cols) throw new RestoreError(`the target database has no table ${t.name}`);
      const lines = createInterface({
        input: createReadStream(path.join(staging, 'db', `${t.name}.jsonl`), 'utf8'),
        crlfDelay: Infinity,
      });
      let rows = 0;
      for await (const line of lines) {
        if (line === '') continue;
        if (++rows > t.rows) throw new RestoreError(`db/${t.name}.jsonl holds more rows than the manifest's ${t.rows}`);
        const row = decodeRow(line, t.name, cols);
        const names = Object.keys(row);
        try {
          await tx.run(
            `INSERT INTO ${t.name} (tenant${names.map((c) => `, ${c}`).join('')}) VALUES (?${', ?'.repeat(names.length)})`,
            [site.tenant, ...names.map((c) => row[c]!)],
          );
        } catch (e) {
          throw new RestoreError(`row ${rows} of ${t.name} cannot go in: ${firstLine(e)}`);
        }
      }
      if (rows !== t.rows) throw new RestoreError(`db/${t.name}.jsonl holds ${rows} rows, the manifest says ${t.rows}`);
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

/** The first line of an error's message, at most 300 characters: never a stack. */
export function firstLine(e: unknown): string {
  const text = e instanceof Error ? e.message : String(e);
  return (text.split('\n')[0] ?? '').slice(0, 300);
}

/** Restores `archive` into `dir` (empty or missing) on the operator's database. */
export async function restoreSite(dir: string, archive: string, opts: RestoreOptions): Promise<Restored> {
  if (!existsSync(archive)) throw new RestoreError(`${archive}: no such file`);
  if (!isEmptyOrMissing(dir))
    throw new RestoreError(`${dir} is not empty: a backup is restored into an empty or new folder only`);
  const maxEntries = opts.maxEntries ?? MAX_BACKUP_ENTRIES;
  // Steps 1 and 2: nothing is written before the archive is known good.
  const found = await scan(archive, maxEntries);
  const { manifest, siteJson } = validate(found, archive, maxEntries);
  const secrets = openSealed(manifest, archive, opts.backupKey, found);
  const reset: string[] = [];
  for (const [field, local] of Object.entries(PLACES)) {
    if (siteJson[field] === undefined) continue;
    if (JSON.stringify(siteJson[field]) !== JSON.stringify(local)) reset.push(field);
    siteJson[field] = local;
  }
  siteJson.database = opts.database;
  try {
    parseSiteConfig(siteJson, `${archive}: its site.json`);
  } catch (e) {
    if (e instanceof SiteConfigError) throw new RestoreError(e.message);
    throw e;
  }

  const existed = existsSync(dir);
  const staging = path.join(dir, '.restore');
  const undo = () => {
    if (existed) for (const f of readdirSync(dir)) rmSync(path.join(dir, f), { recursive: true, force: true });
    else rmSync(dir, { recursive: true, force: true });
  };
  let site: Site | undefined;
  try {
    await refuseKnownSiteKey(dir, opts.database, manifest.site_key);
    await stage(archive, staging, manifest);
    const siteDir = path.join(staging, 'site');
    for (const sub of SITE_SUBFOLDERS) mkdirSync(path.join(dir, sub), { recursive: true });
    for (const f of readdirSync(siteDir))
      if (!f.endsWith(SEALED_SUFFIX)) moveInto(path.join(siteDir, f), path.join(dir, f));
    for (const f of manifest.sealed) rmSync(path.join(siteDir, `${f}${SEALED_SUFFIX}`), { force: true });
    writeFileSync(path.join(dir, 'site.json'), JSON.stringify(siteJson, null, 2) + '\n');
    for (const [f, plain] of secrets) writeFileSync(path.join(dir, f), plain, { mode: 0o600 });
    // A site needs a site key: a new one, which the operator is told of (what the old one sealed stays sealed).
    if (manifest.left_out.includes('data/site-key'))
      writeFileSync(path.join(dir, 'data', 'site-key'), randomBytes(32), { mode: 0o600 });
    site = await openSite(dir);
    await restoreRows(site, staging, manifest);
    const store = site.host.files!;
    for (const e of manifest.entries) {
      if (e.name.startsWith('files/'))
        await store.writeAtomic(parseVirtualPath('/' + e.name), readFileSync(path.join(staging, e.name)));
    }
    await site.close();
    site = undefined;
    rmSync(staging, { recursive: true, force: true });
    return { siteKey: manifest.site_key, reset, missing: manifest.left_out };
  } catch (e) {
    await site?.close().catch(() => {});
    undo();
    if (e instanceof RestoreError) throw e;
    throw new RestoreError(firstLine(e));
  }
}
