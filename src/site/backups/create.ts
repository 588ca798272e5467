/**
 * Making a full backup of a local site (layout.ts): the tenant's rows exported table by table in
 * one snapshot (a transaction; REPEATABLE READ on PostgreSQL), a page of rows at a time, into
 * files beside the archive; then the folder's own files, the storage's files (FileStore
 * list/read, each at most the store's read cap) and the rows packed into a tar with tar-stream,
 * each entry hashed as it is written, the manifest last. The archive is written under a temporary
 * name and renamed when whole; past MAX_BACKUP_BYTES or MAX_BACKUP_ENTRIES nothing is kept. The
 * folder's secrets are sealed with the operator's backup key, or left out without one (sealed.ts).
 * A backup made for a render stops when the render ends (D184): between two entries, and inside
 * the copy of a file; the temporary archive and folder are removed, and no archive appears.
 */
import { createHash } from 'node:crypto';
import {
  createReadStream,
  createWriteStream,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
  openSync,
  closeSync,
} from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';
import tar from 'tar-stream';
import { BridgeError, ENGINE_VERSION, KNOWN_ROOTS, parseVirtualPath, type FileStore } from '../../index.js';
import type { SiteContext } from '../site-context.js';
import type { SqlRunner } from '../db/database.js';
import {
  BACKUP_DIR,
  EXPORT_PAGE_ROWS,
  FORMAT,
  MANIFEST,
  MAX_BACKUP_BYTES,
  MAX_BACKUP_ENTRIES,
  SEALED_SUFFIX,
  SECRET_FILES,
  SITE_FILES,
  SITE_FOLDERS,
  backupTables,
  type SecretFile,
} from './layout.js';
import type { Manifest, ManifestEntry } from './manifest.js';
import { seal } from './sealed.js';

class TooLarge extends Error {}

/** Throws the render's reason once it has ended (E_WALL_TIMEOUT or E_BRIDGE_CLOSED). */
function checkEnded(signal: AbortSignal | undefined): void {
  if (!signal?.aborted) return;
  const code = signal.reason instanceof BridgeError ? signal.reason.code : 'E_BRIDGE_CLOSED';
  throw new BridgeError(code, '{backup}: the render ended before the backup was done');
}

/** Counts the archive's bytes and hashes each entry as it is added. */
class Packer {
  readonly entries: ManifestEntry[] = [];
  private total = 0;
  constructor(
    private readonly pack: tar.Pack,
    private readonly mtime: Date,
    private readonly signal: AbortSignal | undefined,
  ) {}

  private count(n: number): void {
    checkEnded(this.signal);
    this.total += n + 1024;
    if (this.total > MAX_BACKUP_BYTES || this.entries.length >= MAX_BACKUP_ENTRIES - 1) throw new TooLarge();
  }

  async buffer(name: string, data: Uint8Array): Promise<void> {
    this.count(data.length);
    this.entries.push({ name, size: data.length, sha256: createHash('sha256').update(data).digest('hex') });
    await new Promise<void>((resolve, reject) =>
      this.pack.entry({ name, size: data.length, mode: 0o600, mtime: this.mtime }, Buffer.from(data), (e) =>
        e ? reject(e) : resolve(),
      ),
    );
  }

  async file(name: string, file: string): Promise<void> {
    const size = statSync(file).size;
    this.count(size);
    const hash = createHash('sha256');
    const entry = this.pack.entry({ name, size, mode: 0o600, mtime: this.mtime });
    await pipeline(
      createReadStream(file),
      new Transform({
        transform: (chunk: Buffer, _e, cb) => {
          hash.update(chunk);
          cb(null, chunk);
        },
      }),
      entry,
      this.signal ? { signal: this.signal } : {},
    );
    this.entries.push({ name, size, sha256: hash.digest('hex') });
  }
}

/** The tenant's rows of every kept table, as JSON lines in `dir`; the row counts. */
async function exportTables(ctx: SiteContext, dir: string): Promise<{ name: string; rows: number }[]> {
  mkdirSync(dir, { recursive: true });
  let bytes = 0;
  return ctx.db.transaction(async (tx: SqlRunner) => {
    if (ctx.db.dialect === 'postgres') await tx.run('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ');
    const out: { name: string; rows: number }[] = [];
    for (const table of backupTables()) {
      const fd = openSync(path.join(dir, `${table}.jsonl`), 'w', 0o600);
      let rows = 0;
      try {
        const first = await tx.get<Record<string, unknown>>(`SELECT * FROM ${table} WHERE tenant = ? LIMIT 1`, [
          ctx.tenant,
        ]);
        // Ordered by every column: pages of one snapshot that neither skip nor repeat a row.
        const order = Object.keys(first ?? { tenant: null })
          .map((_, i) => i + 1)
          .join(', ');
        for (let offset = 0; first; offset += EXPORT_PAGE_ROWS) {
          const page = await tx.all<Record<string, unknown>>(
            `SELECT * FROM ${table} WHERE tenant = ? ORDER BY ${order} LIMIT ? OFFSET ?`,
            [ctx.tenant, EXPORT_PAGE_ROWS, offset],
          );
          let text = '';
          for (const row of page) {
            const { tenant: _, ...cols } = row;
            text += JSON.stringify(cols) + '\n';
          }
          bytes += Buffer.byteLength(text);
          if (bytes > MAX_BACKUP_BYTES) throw new TooLarge();
          writeSync(fd, text);
          rows += page.length;
          if (page.length < EXPORT_PAGE_ROWS) break;
        }
      } finally {
        closeSync(fd);
      }
      out.push({ name: table, rows });
    }
    return out;
  });
}

/** Regular files under a folder of the site, relative paths sorted; links are not followed. */
function folderFiles(dir: string, rel: string): string[] {
  const at = path.join(dir, rel);
  if (!existsSync(at) || !lstatSync(at).isDirectory()) return [];
  const out: string[] = [];
  for (const d of readdirSync(at, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const child = path.join(rel, d.name);
    if (d.isDirectory()) out.push(...folderFiles(dir, child));
    else if (d.isFile()) out.push(child);
  }
  return out;
}

async function packStorage(packer: Packer, store: FileStore): Promise<void> {
  for (const root of KNOWN_ROOTS) {
    let entries;
    try {
      entries = await store.list(parseVirtualPath(root), { recursive: true, maxDepth: 64 });
    } catch (e) {
      if ((e as { code?: string }).code === 'E_FILE_NOT_FOUND') continue;
      throw e;
    }
    for (const e of entries)
      if (!e.isDir) await packer.buffer(e.path.slice(1), await store.read(parseVirtualPath(e.path)));
  }
}

/**
 * Writes data/backups/<id>.tar; its size and SHA-256. `backupKey`: the operator's (sealed.ts), or
 * null to leave the secrets out. `signal`: the render's, when a render asked for the backup.
 */
export async function createBackup(
  ctx: SiteContext,
  store: FileStore,
  id: string,
  created: number,
  backupKey: Buffer | null,
  signal?: AbortSignal,
): Promise<{ size: number; sha256: string }> {
  const folder = path.join(ctx.dir, BACKUP_DIR);
  const staging = path.join(folder, `.tmp-${id}`);
  const partial = path.join(folder, `.tmp-${id}.tar`);
  const final = path.join(folder, `${id}.tar`);
  mkdirSync(staging, { recursive: true, mode: 0o700 });
  const pack = tar.pack();
  const written = pipeline(pack, createWriteStream(partial, { mode: 0o600 }));
  written.catch(() => {});
  try {
    const tables = await exportTables(ctx, path.join(staging, 'db'));
    const packer = new Packer(pack, new Date(created * 1000), signal);
    for (const f of [...SITE_FILES, ...SITE_FOLDERS.flatMap((d) => folderFiles(ctx.dir, d))]) {
      const file = path.join(ctx.dir, f);
      if (existsSync(file) && lstatSync(file).isFile())
        await packer.buffer(`site/${f.split(path.sep).join('/')}`, readFileSync(file));
    }
    const sealed: SecretFile[] = [];
    const leftOut: SecretFile[] = [];
    for (const f of SECRET_FILES) {
      const file = path.join(ctx.dir, ...f.split('/'));
      if (!existsSync(file) || !lstatSync(file).isFile()) continue;
      if (!backupKey) {
        leftOut.push(f);
        continue;
      }
      await packer.buffer(`site/${f}${SEALED_SUFFIX}`, seal(backupKey, ctx.tenant, f, readFileSync(file)));
      sealed.push(f);
    }
    await packStorage(packer, store);
    for (const t of tables) await packer.file(`db/${t.name}.jsonl`, path.join(staging, 'db', `${t.name}.jsonl`));
    const manifest: Manifest = {
      format: FORMAT,
      engine: ENGINE_VERSION,
      site_key: ctx.tenant,
      created,
      backend: ctx.db.dialect,
      tables,
      entries: packer.entries,
      sealed,
      left_out: leftOut,
    };
    await packer.buffer(MANIFEST, Buffer.from(JSON.stringify(manifest, null, 2) + '\n'));
    pack.finalize();
    await written;
    // The last moment a render that ended can still stop it: nothing is renamed for it after.
    checkEnded(signal);
    renameSync(partial, final);
  } catch (e) {
    pack.destroy();
    // Once the write stream has closed: a stream still opening would make the file again after the rm.
    await written.catch(() => {});
    rmSync(partial, { force: true });
    if (e instanceof TooLarge)
      throw new BridgeError(
        'E_SIZE_LIMIT',
        `a backup of this site would be larger than ${MAX_BACKUP_BYTES >> 20} MiB or hold more than ${MAX_BACKUP_ENTRIES} entries; nothing was kept`,
      );
    throw e;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  const hash = createHash('sha256');
  await pipeline(createReadStream(final), hash);
  return { size: statSync(final).size, sha256: hash.digest('hex') };
}
