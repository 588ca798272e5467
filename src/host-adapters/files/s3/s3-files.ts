/**
 * One tenant's files in an S3-compatible bucket (under a prefix of its own): the FileStore
 * (file-store.ts) of a site whose storage is object storage, for small files (every read is bounded
 * by maxReadBytes). Keys mirror the virtual path (keys.ts); ACL from the path (acl.ts);
 * Content-Type from the content (content-type.ts).
 *
 * How FileStore's guarantees are kept on a store that has keys, not folders:
 *  - Folders: a folder exists when a key lies below it; writes also leave an empty marker object
 *    `<folder>/` for each folder they create, so a folder outlives its last file as on disk. A
 *    write refuses to put a file where a folder is, or below a file (the tree stays a tree).
 *  - Confinement: keys are built from canonical virtual paths only, below the tenant's prefix; a
 *    listing shows only keys that are exactly the key of a canonical path.
 *  - writeAtomic is one PutObject: readers see the old object or the new one.
 *  - appendRecord is read-modify-write of the whole object under the path's process-wide lock,
 *    and the PutObject is conditional on the ETag read (If-Match, or If-None-Match for a new
 *    file) where the server supports conditional writes, so another process's append is never
 *    lost silently (E_FILE_FAILED instead). A file may grow by appends only up to maxReadBytes:
 *    it must stay readable whole.
 *  - rename reads the source (at most maxReadBytes), writes the destination with the
 *    destination's ACL, then deletes the source: a failure in between leaves both, never neither.
 *  - Quota: usage is every key below the prefix (files and markers; bytes of all), scanned once
 *    and kept up to date by this instance (quota.ts); reservations come before any PutObject.
 *  - Listings read keys flat below the folder (no delimiter: S3-compatible servers differ there),
 *    each key counted against `maxScanned`, and are ordered here (pre-order, names by UTF-8 bytes).
 *  - Errors: FileError naming the virtual path; S3's own error name is kept in `sysCode`, never a
 *    key, bucket or host.
 */
import { compareCodePoints } from '../../../text/code-point-order.js';
import { objectAcl } from '../acl.js';
import { contentTypeOf } from '../content-type.js';
import { FileError, isDirectoryFailure } from '../errors.js';
import type { FileStat, FileStore, ListEntry, ListOptions } from '../file-store.js';
import { withPathLocks } from '../locks.js';
import { Quota, type Usage } from '../quota.js';
import { DEFAULT_MAX_STORAGE_ENTRIES } from '../tenant-files.js';
import { refuseRoot, revalidate, type VirtualPath } from '../virtual-path.js';
import { scanBudget } from '../walk.js';
import { Bucket, S3Failure, TooLarge, type ObjectHead, type S3Location } from './bucket.js';
import { ancestorKeys, objectKey, pathOfKey, tenantPrefix } from './keys.js';

export interface S3FilesOptions extends S3Location {
  /** The tenant's key prefix (`site-a/`); empty: the whole bucket is the tenant's. */
  prefix?: string;
  quotaBytes: number;
  maxReadBytes: number;
  maxEntries: number;
  /** Keys (files and folder markers) the tenant may hold; default DEFAULT_MAX_STORAGE_ENTRIES. */
  maxStorageEntries?: number;
  /**
   * Send If-Match / If-None-Match on appends (default true). A server that ignores them (s3rver)
   * still gets appends that never interleave within this process.
   */
  conditionalWrites?: boolean;
}

const MARKER_TYPE = 'application/x-directory';
const DIR_STAT: FileStat = { size: 0, ctime: 0, mtime: 0, isDir: true };

interface Node {
  name: string;
  stat: FileStat;
  children: Map<string, Node> | null;
}

export class S3Files implements FileStore {
  private readonly bucket: Bucket;
  private readonly prefix: string;
  private readonly quota: Quota;
  private readonly limits: { maxReadBytes: number; maxEntries: number; maxStorageEntries: number };
  private readonly conditional: boolean;

  constructor(o: S3FilesOptions) {
    const maxStorageEntries = o.maxStorageEntries ?? DEFAULT_MAX_STORAGE_ENTRIES;
    for (const [k, v] of Object.entries({
      quotaBytes: o.quotaBytes,
      maxReadBytes: o.maxReadBytes,
      maxEntries: o.maxEntries,
      maxStorageEntries,
    })) {
      if (!Number.isFinite(v) || v < 0) throw new TypeError(`S3Files: ${k} must be a non-negative number`);
    }
    this.bucket = new Bucket(o);
    this.prefix = tenantPrefix(o.prefix);
    this.limits = { maxReadBytes: o.maxReadBytes, maxEntries: o.maxEntries, maxStorageEntries };
    this.conditional = o.conditionalWrites ?? true;
    this.quota = new Quota(() => this.scanUsage(), { quotaBytes: o.quotaBytes, maxStorageEntries });
  }

  async read(p0: VirtualPath): Promise<Uint8Array> {
    const p = refuseRoot(revalidate(p0), 'read');
    return this.guard(p, 'read', async () => {
      try {
        return (await this.bucket.get(this.key(p), this.limits.maxReadBytes)).data;
      } catch (e) {
        if (e instanceof S3Failure && e.notFound && (await this.isFolder(p))) throw isDirectoryFailure(p.text);
        throw e;
      }
    });
  }

  async stat(p0: VirtualPath): Promise<FileStat> {
    const p = revalidate(p0);
    if (p.segments.length === 0) return DIR_STAT;
    return this.guard(p, 'stat', async () => {
      const [file, marker] = await Promise.all([this.bucket.head(this.key(p)), this.bucket.head(this.key(p) + '/')]);
      if (file) return fileStat(file);
      if (marker) return { ...DIR_STAT, ctime: marker.mtime, mtime: marker.mtime };
      if (await this.bucket.any(this.key(p) + '/')) return DIR_STAT;
      throw notFound(p);
    });
  }

  async list(p0: VirtualPath, o: ListOptions): Promise<ListEntry[]> {
    const p = revalidate(p0);
    if (o.scanned) o.scanned.count = 0;
    return this.guard(p, 'list', async () => {
      if (p.segments.length > 0 && !(await this.stat(p)).isDir)
        throw new FileError('E_FILE_NOT_FOUND', p.text, 'not a folder', { reason: 'not-found' });
      const budget = Math.min(scanBudget(this.limits.maxEntries), o.maxScanned ?? Infinity);
      const keys = await this.bucket.list(
        this.key(p) + '/',
        budget,
        () =>
          new FileError('E_SIZE_LIMIT', p.text, `more than ${budget} directory entries scanned`, {
            reason: 'entry-limit',
          }),
        o.scanned,
      );
      const root = this.tree(p, keys);
      const maxDepth = o.recursive ? Math.max(1, Math.floor(o.maxDepth)) : 1;
      const out: ListEntry[] = [];
      const visit = (node: Node, path: string, depth: number): void => {
        for (const child of [...(node.children?.values() ?? [])].sort((a, b) => compareCodePoints(a.name, b.name))) {
          if (out.length >= this.limits.maxEntries)
            throw new FileError('E_SIZE_LIMIT', p.text, `more than ${this.limits.maxEntries} entries`, {
              reason: 'entry-limit',
            });
          out.push({ path: `${path}/${child.name}`, ...child.stat });
          if (child.children && depth < maxDepth) visit(child, `${path}/${child.name}`, depth + 1);
        }
      };
      visit(root, p.text, 1);
      return out;
    });
  }

  async writeAtomic(p0: VirtualPath, data: Uint8Array): Promise<void> {
    const p = refuseRoot(revalidate(p0), 'write');
    await this.writing(p, [p], async () => {
      const { old, markers } = await this.placeFile(p);
      await this.reserve(p, data.length - (old?.size ?? 0), (old ? 0 : 1) + markers.length, async () => {
        await this.putMarkers(markers);
        await this.bucket.put(this.key(p), data, {
          acl: objectAcl(p),
          contentType: contentTypeOf(p.segments.at(-1) ?? '', data),
        });
      });
    });
  }

  async appendRecord(p0: VirtualPath, data: Uint8Array): Promise<void> {
    const p = refuseRoot(revalidate(p0), 'write');
    await this.writing(p, [p], async () => {
      const { old, markers } = await this.placeFile(p);
      if ((old?.size ?? 0) + data.length > this.limits.maxReadBytes) {
        throw new FileError(
          'E_SIZE_LIMIT',
          p.text,
          `the file would pass ${this.limits.maxReadBytes} bytes, more than can be read back`,
          { reason: 'read-limit' },
        );
      }
      const before = old ? await this.bucket.get(this.key(p), this.limits.maxReadBytes) : null;
      const whole = before ? concat(before.data, data) : data;
      await this.reserve(p, whole.length - (before?.data.length ?? 0), (old ? 0 : 1) + markers.length, async () => {
        await this.putMarkers(markers);
        const cond = !this.conditional ? {} : before ? { ifMatch: before.etag } : { ifNoneMatch: '*' as const };
        await this.bucket.put(this.key(p), whole, {
          acl: objectAcl(p),
          contentType: contentTypeOf(p.segments.at(-1) ?? '', whole),
          ...cond,
        });
      });
    });
  }

  async remove(p0: VirtualPath): Promise<void> {
    const p = refuseRoot(revalidate(p0), 'remove');
    await this.writing(p, [p], async () => {
      const old = await this.bucket.head(this.key(p));
      if (!old) throw (await this.isFolder(p)) ? isDirectoryFailure(p.text) : notFound(p);
      await this.bucket.delete([this.key(p)]);
      this.quota.releaseBytes(old.size);
      this.quota.releaseEntries(1);
    });
  }

  async removeDir(p0: VirtualPath, o: { recursive?: boolean } = {}): Promise<void> {
    const p = refuseRoot(revalidate(p0), 'remove');
    await this.writing(p, [p], async () => {
      if (await this.bucket.head(this.key(p)))
        throw new FileError('E_FILE_FAILED', p.text, 'not a folder', { reason: 'not-a-directory' });
      const marker = this.key(p) + '/';
      const keys = await this.bucket.list(
        marker,
        scanBudget(this.limits.maxEntries),
        () => new FileError('E_SIZE_LIMIT', p.text, 'too many entries to remove', { reason: 'entry-limit' }),
      );
      if (keys.length === 0) throw notFound(p);
      if (!(o.recursive ?? true) && keys.some((k) => k.key !== marker)) {
        throw new FileError('E_FILE_FAILED', p.text, 'directory not empty', { reason: 'exists' });
      }
      // The marker last: a removal cut short leaves the folder, not orphans of a vanished one.
      const ordered = [...keys.filter((k) => k.key !== marker), ...keys.filter((k) => k.key === marker)];
      await this.bucket.delete(ordered.map((k) => k.key));
      this.quota.releaseBytes(keys.reduce((n, k) => n + k.size, 0));
      this.quota.releaseEntries(keys.length);
    });
  }

  async rename(from0: VirtualPath, to0: VirtualPath): Promise<void> {
    const from = refuseRoot(revalidate(from0), 'move');
    const to = refuseRoot(revalidate(to0), 'move onto');
    if (from.text === to.text) return;
    await this.writing(from, [from, to], async () => {
      let src: Uint8Array;
      try {
        src = (await this.bucket.get(this.key(from), this.limits.maxReadBytes)).data;
      } catch (e) {
        if (e instanceof S3Failure && e.notFound) {
          throw (await this.isFolder(from))
            ? new FileError('E_FILE_FAILED', from.text, 'only files can be moved', { reason: 'not-a-file' })
            : notFound(from);
        }
        throw e;
      }
      const { old, markers } = await this.placeFile(to);
      await this.reserve(to, -(old?.size ?? 0), markers.length - (old ? 1 : 0), async () => {
        await this.putMarkers(markers);
        await this.bucket.put(this.key(to), src, {
          acl: objectAcl(to),
          contentType: contentTypeOf(to.segments.at(-1) ?? '', src),
        });
        await this.bucket.delete([this.key(from)]);
      });
    });
  }

  /** A presigned GET URL of the file, valid `seconds` seconds (at most 7 days). The caller checked the file exists. */
  async presignGet(p0: VirtualPath, seconds: number): Promise<string> {
    const p = refuseRoot(revalidate(p0), 'link');
    return this.guard(p, 'link', () => this.bucket.presignGet(this.key(p), seconds));
  }

  /** Bytes and keys in use (a rescan). */
  async usage(): Promise<Usage> {
    return this.quota.rescan();
  }

  private key(p: VirtualPath): string {
    return objectKey(this.prefix, p);
  }

  private async isFolder(p: VirtualPath): Promise<boolean> {
    return p.segments.length === 0 || (await this.bucket.any(this.key(p) + '/'));
  }

  /**
   * Where a file can go at `p`: not onto a folder, not below a file. Answers the file there now
   * and the folder markers still to make.
   */
  private async placeFile(p: VirtualPath): Promise<{ old: ObjectHead | null; markers: string[] }> {
    const ancestors = ancestorKeys(this.prefix, p);
    const [old, here, files, markers] = await Promise.all([
      this.bucket.head(this.key(p)),
      this.bucket.any(this.key(p) + '/'),
      Promise.all(ancestors.map((k) => this.bucket.head(k))),
      Promise.all(ancestors.map((k) => this.bucket.head(k + '/'))),
    ]);
    if (here) throw isDirectoryFailure(p.text);
    if (files.some((f) => f !== null))
      throw new FileError('E_FILE_FAILED', p.text, 'a file is in the way of a folder on the path', {
        reason: 'not-a-directory',
      });
    return { old, markers: ancestors.filter((_, i) => markers[i] === null).map((k) => k + '/') };
  }

  private async putMarkers(markers: readonly string[]): Promise<void> {
    for (const m of markers) await this.bucket.put(m, new Uint8Array(0), { acl: 'private', contentType: MARKER_TYPE });
  }

  /** Reserve bytes and keys, run the writes, and give the reservation back if they fail. */
  private async reserve(p: VirtualPath, bytes: number, entries: number, write: () => Promise<void>): Promise<void> {
    this.quota.reserveBytes(bytes, p);
    try {
      this.quota.reserveEntries(Math.max(0, entries), p);
    } catch (e) {
      this.quota.releaseBytes(bytes);
      throw e;
    }
    if (entries < 0) this.quota.releaseEntries(-entries);
    try {
      await write();
    } catch (e) {
      // What was written of it is unknown (a marker, the object before a failed delete): count again.
      this.quota.forget();
      throw e;
    }
  }

  /** A change under the locks of `paths`, with the quota loaded and FileError out. */
  private async writing(p: VirtualPath, paths: readonly VirtualPath[], fn: () => Promise<void>): Promise<void> {
    await this.guard(p, 'write', async () => {
      await this.quota.load();
      await this.quota.writing(() => withPathLocks(`${this.bucket.identity}/${this.prefix}`, paths, fn));
    });
  }

  private async guard<T>(p: VirtualPath, what: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (e) {
      throw translateS3Error(e, p, what);
    }
  }

  private tree(p: VirtualPath, keys: readonly { key: string; size: number; mtime: number }[]): Node {
    const root: Node = { name: '', stat: DIR_STAT, children: new Map() };
    const depth = p.segments.length;
    for (const k of keys) {
      const at = pathOfKey(this.prefix, k.key);
      if (!at || at.path.root !== p.root) continue;
      const names = at.path.segments.slice(depth);
      if (names.length === 0) continue; // the folder's own marker
      let node = root;
      names.forEach((name, i) => {
        const last = i === names.length - 1;
        const dir = !last || at.marker;
        const children = node.children ?? (node.children = new Map());
        let child = children.get(name);
        if (!child || (dir && !child.children)) {
          // A folder wins over a file of the same name (a key written around the store).
          child = { name, stat: DIR_STAT, children: dir ? (child?.children ?? new Map()) : null };
          children.set(name, child);
        }
        if (last)
          child.stat = at.marker
            ? { ...DIR_STAT, ctime: k.mtime, mtime: k.mtime }
            : child.children
              ? child.stat
              : { size: k.size, ctime: k.mtime, mtime: k.mtime, isDir: false };
        node = child;
      });
    }
    return root;
  }

  private async scanUsage(): Promise<Usage> {
    const max = this.limits.maxStorageEntries;
    try {
      const keys = await this.bucket.list(this.prefix + 'files/', max + 1, () => new TooLarge(max));
      return { bytes: keys.reduce((n, k) => n + k.size, 0), entries: keys.length };
    } catch (e) {
      if (!(e instanceof TooLarge)) throw translateS3Error(e, '/files', 'usage scan');
      // Past the entry cap the scan stops, and the storage counts as full (bytes and entries) until a rescan.
      return { bytes: Number.POSITIVE_INFINITY, entries: max + 1 };
    }
  }
}

function fileStat(h: ObjectHead): FileStat {
  return { size: h.size, ctime: h.mtime, mtime: h.mtime, isDir: false };
}

function notFound(p: VirtualPath): FileError {
  return new FileError('E_FILE_NOT_FOUND', p.text, 'no such file or directory', { reason: 'not-found' });
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

/** Any failure as a FileError naming the virtual path only (the S3 error's name kept as sysCode). */
function translateS3Error(e: unknown, p: VirtualPath | string, what: string): FileError {
  if (e instanceof FileError) return e;
  const text = typeof p === 'string' ? p : p.text;
  if (e instanceof TooLarge) return new FileError('E_SIZE_LIMIT', text, e.message, { reason: 'read-limit' });
  if (e instanceof S3Failure) {
    if (e.notFound)
      return new FileError('E_FILE_NOT_FOUND', text, 'no such file or directory', {
        reason: 'not-found',
        sysCode: e.errorName,
      });
    if (e.preconditionFailed)
      return new FileError('E_FILE_FAILED', text, 'the file changed meanwhile; nothing was written', {
        reason: 'changed',
        sysCode: e.errorName,
      });
    return new FileError('E_FILE_FAILED', text, `${what} failed (${e.errorName})`, {
      reason: 's3-error',
      sysCode: e.errorName,
    });
  }
  return new FileError('E_FILE_FAILED', text, `${what} failed`, { reason: 's3-error' });
}
