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
 *  - appendRecord is read-modify-write of the whole object. Every change holds the path's lock:
 *    this process's (locks.ts), then the shared lock (`locks`, SharedLocks: the site's database)
 *    that every process on the bucket takes, so appends from several nodes never lose each other.
 *    open() probes once whether the server honours conditional writes (a PutObject with a wrong
 *    If-Match, and one with If-None-Match: * over an existing key, must both be refused, 412).
 *    Honoured, appends are also conditional on the ETag read; with no shared lock they rely on
 *    that alone and retry a few times when another process came first. Neither (s3rver ignores
 *    the headers): the store refuses every write, with one line, unless it was told it is the
 *    only process (`singleProcess`). A file may grow by appends only up to maxReadBytes: it must
 *    stay readable whole.
 *  - rename reads the source (at most maxReadBytes), writes the destination with the
 *    destination's ACL, then deletes the source: a failure in between leaves both, never neither.
 *  - Quota: usage is every key below the prefix (files and markers; bytes of all). With `usage`
 *    (SharedUsage) it is one count in the host's backend that every process reserves from
 *    atomically, seeded by one scan; without, it is scanned once and kept by this instance
 *    (store-count.ts). Reservations come before any PutObject; a failed write gives back what it
 *    did not write, a removal what it removed.
 *  - Listings read keys flat below the folder (no delimiter: S3-compatible servers differ there),
 *    each key counted against `maxScanned`, and are ordered here (pre-order, names by UTF-8 bytes).
 *  - Errors: FileError naming the virtual path; S3's own error name is kept in `sysCode`, never a
 *    key, bucket or host.
 */
import { randomUUID } from 'node:crypto';
import { compareCodePoints } from '../../../text/code-point-order.js';
import { objectAcl } from '../acl.js';
import { contentTypeOf } from '../content-type.js';
import { FileError, isDirectoryFailure } from '../errors.js';
import type { FileStat, FileStore, FileStream, ListEntry, ListOptions } from '../file-store.js';
import { LockWaitRefused, withKeyLocks } from '../locks.js';
import type { Usage } from '../quota.js';
import { currentRenderSignal } from '../../../host-api/render-signal.js';
import type { LockRefusal, SharedLocks, SharedUsage } from '../shared-coordination.js';
import { LocalCount, SharedCount, type StoreCount } from '../store-count.js';
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
   * Probe whether the server honours If-Match / If-None-Match and use them on appends where it
   * does (default true). false: never send them (the store then needs `locks` or `singleProcess`).
   */
  conditionalWrites?: boolean;
  /** Path locks shared with every process writing this storage (the site: its database). */
  locks?: SharedLocks;
  /** The usage count shared with every process writing this storage; absent: counted in this process. */
  usage?: SharedUsage;
  /** The longest wait for a path's locks, in milliseconds (default 5000); a render's end stops it sooner. */
  lockWaitMs?: number;
  /**
   * No other process writes this storage: with neither shared locks nor conditional writes, the
   * process's own locks suffice. Without it such a store refuses every write (appends from two
   * processes would lose each other silently).
   */
  singleProcess?: boolean;
}

/**
 * How appends are kept from losing each other, as open() found out: under the shared lock,
 * by conditional writes alone, or under this process's lock (`singleProcess`).
 */
export interface AppendMode {
  appends: 'shared-lock' | 'conditional' | 'process-lock';
  /** Did the server refuse both wrong preconditions of the probe? */
  conditionalWrites: boolean;
}

/** Attempts of a conditional append that another process's append keeps beating (no shared lock). */
const CONDITIONAL_ATTEMPTS = 5;
const DEFAULT_LOCK_WAIT_MS = 5000;

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
  private readonly count: StoreCount;
  private readonly limits: { maxReadBytes: number; maxEntries: number; maxStorageEntries: number };
  private readonly conditional: boolean;
  private readonly locks: SharedLocks | undefined;
  private readonly lockWaitMs: number;
  private readonly singleProcess: boolean;
  private opened: Promise<AppendMode> | undefined;

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
    this.locks = o.locks;
    this.lockWaitMs = o.lockWaitMs ?? DEFAULT_LOCK_WAIT_MS;
    this.singleProcess = o.singleProcess ?? false;
    const limits = { quotaBytes: o.quotaBytes, maxStorageEntries };
    this.count = o.usage
      ? new SharedCount(o.usage, () => this.scanUsage(), limits)
      : new LocalCount(() => this.scanUsage(), limits);
  }

  /**
   * Probes the server once (conditional writes honoured?) and answers how appends are kept
   * apart; rejects with one line when they cannot be (no shared lock, no conditional writes, not
   * singleProcess). Every write waits for it; a host calls it at open to refuse early.
   */
  open(): Promise<AppendMode> {
    this.opened ??= this.decide().catch((e: unknown) => {
      this.opened = undefined;
      throw e;
    });
    return this.opened;
  }

  private async decide(): Promise<AppendMode> {
    let conditionalWrites = false;
    if (this.conditional) {
      try {
        conditionalWrites = await this.probeConditionalWrites();
      } catch (e) {
        // Unreachable now: with a shared lock the answer only adds a safety net, so go on without it.
        if (!this.locks && !this.singleProcess) throw e;
      }
    }
    const appends = this.locks ? 'shared-lock' : conditionalWrites ? 'conditional' : 'process-lock';
    if (appends === 'process-lock' && !this.singleProcess) {
      throw new S3StoreRefused(
        `the S3 server ignores conditional writes (If-Match) and no shared lock was given: appends from several processes would lose each other (give the store shared locks, or singleProcess)`,
      );
    }
    return { appends, conditionalWrites };
  }

  /** Are a wrong If-Match and an If-None-Match: * over an existing key both refused? Writes one object outside files/ and removes it. */
  private async probeConditionalWrites(): Promise<boolean> {
    const key = `${this.prefix}.smartcage/probe-${randomUUID()}`;
    const o = { acl: 'private' as const, contentType: 'text/plain' };
    await this.bucket.put(key, new TextEncoder().encode('probe'), o);
    const refused = async (cond: { ifMatch?: string; ifNoneMatch?: '*' }): Promise<boolean> => {
      try {
        await this.bucket.put(key, new TextEncoder().encode('changed'), { ...o, ...cond });
        return false;
      } catch (e) {
        if (e instanceof S3Failure && e.preconditionFailed) return true;
        if (e instanceof S3Failure) return false; // NotImplemented and the like: not honoured
        throw e;
      }
    };
    try {
      return (
        (await refused({ ifMatch: '"00000000000000000000000000000000"' })) && (await refused({ ifNoneMatch: '*' }))
      );
    } finally {
      await this.bucket.delete([key]).catch(() => {});
    }
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
      await this.reserve(p, data.length - (old?.size ?? 0), old ? 0 : 1, async () => {
        await this.putMarkers(p, markers);
        await this.bucket.put(this.key(p), data, {
          acl: objectAcl(p),
          contentType: contentTypeOf(p.segments.at(-1) ?? '', data),
        });
      });
    });
  }

  async appendRecord(p0: VirtualPath, data: Uint8Array): Promise<void> {
    const p = refuseRoot(revalidate(p0), 'write');
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.appendOnce(p, data);
      } catch (e) {
        // Only conditional appends without a shared lock lose races that a new attempt can win.
        const raced = e instanceof FileError && e.reason === 'changed' && (await this.open()).appends === 'conditional';
        if (!raced || attempt >= CONDITIONAL_ATTEMPTS) throw e;
      }
    }
  }

  private async appendOnce(p: VirtualPath, data: Uint8Array): Promise<void> {
    await this.writing(p, [p], async (mode) => {
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
      await this.reserve(p, whole.length - (before?.data.length ?? 0), old ? 0 : 1, async () => {
        await this.putMarkers(p, markers);
        const cond = !mode.conditionalWrites ? {} : before ? { ifMatch: before.etag } : { ifNoneMatch: '*' as const };
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
      await this.count.release(old.size, 1);
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
      await this.count.release(
        keys.reduce((n, k) => n + k.size, 0),
        keys.length,
      );
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
      await this.reserve(to, -(old?.size ?? 0), old ? -1 : 0, async (done) => {
        await this.putMarkers(to, markers);
        await this.bucket.put(this.key(to), src, {
          acl: objectAcl(to),
          contentType: contentTypeOf(to.segments.at(-1) ?? '', src),
        });
        // Copied: until the source is gone, it counts as well.
        done.bytes += src.length - (old?.size ?? 0);
        done.entries += old ? 0 : 1;
        await this.bucket.delete([this.key(from)]);
      });
    });
  }

  async readStream(p0: VirtualPath): Promise<FileStream> {
    const p = refuseRoot(revalidate(p0), 'read');
    const opened = await this.guard(p, 'read', async () => {
      try {
        return await this.bucket.getStream(this.key(p), this.limits.maxReadBytes);
      } catch (e) {
        if (e instanceof S3Failure && e.notFound && (await this.isFolder(p))) throw isDirectoryFailure(p.text);
        throw e;
      }
    });
    const guard = <T>(fn: () => Promise<T>) => this.guard(p, 'read', fn);
    async function* chunks(): AsyncGenerator<Uint8Array, void, undefined> {
      const it = opened.chunks[Symbol.asyncIterator]();
      try {
        for (;;) {
          const next = await guard(() => it.next());
          if (next.done) return;
          yield next.value;
        }
      } finally {
        opened.close();
      }
    }
    return { size: opened.size, chunks: chunks(), close: async () => opened.close() };
  }

  /** A presigned GET URL of the file, valid `seconds` seconds (at most 7 days). The caller checked the file exists. */
  async presignGet(p0: VirtualPath, seconds: number): Promise<string> {
    const p = refuseRoot(revalidate(p0), 'link');
    return this.guard(p, 'link', () => this.bucket.presignGet(this.key(p), seconds));
  }

  /** Bytes and keys in use (a rescan; the count of this process takes it, a shared count is left as it is). */
  async usage(): Promise<Usage> {
    return this.count instanceof LocalCount ? this.count.rescan() : this.scanUsage();
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

  /**
   * Makes the folder markers `placeFile` found missing, each under its own lock (writes of two
   * files into one new folder both find its marker missing) and counted by whoever makes it.
   */
  private async putMarkers(p: VirtualPath, markers: readonly string[]): Promise<void> {
    for (const m of markers) {
      await this.locked(p, [m], async () => {
        if (await this.bucket.head(m)) return;
        await this.count.reserve(p, 0, 1);
        try {
          await this.bucket.put(m, new Uint8Array(0), { acl: 'private', contentType: MARKER_TYPE });
        } catch (e) {
          await this.count.failed(0, 1).catch(() => {});
          throw e;
        }
      });
    }
  }

  /**
   * Reserve bytes and keys, run the writes, and give back what they did not write if they fail
   * (`done`: what the write had written when it failed, as the write counts it).
   */
  private async reserve(
    p: VirtualPath,
    bytes: number,
    entries: number,
    write: (done: Landed) => Promise<void>,
  ): Promise<void> {
    await this.count.reserve(p, bytes, entries);
    const done: Landed = { bytes: 0, entries: 0 };
    try {
      await write(done);
    } catch (e) {
      await this.count.failed(bytes - done.bytes, entries - done.entries).catch(() => {});
      throw e;
    }
  }

  /** A change under the locks of `paths` (this process's, then the shared ones), with the count loaded and FileError out. */
  private async writing(
    p: VirtualPath,
    paths: readonly VirtualPath[],
    fn: (mode: AppendMode) => Promise<void>,
  ): Promise<void> {
    await this.guard(p, 'write', async () => {
      const mode = await this.open();
      await this.count.load();
      await this.count.writing(() =>
        this.locked(
          p,
          paths.map((q) => this.key(q)),
          () => fn(mode),
        ),
      );
    });
  }

  /** Runs `fn` holding the locks of object keys: this process's, then the shared ones; the wait capped. */
  private async locked(p: VirtualPath, keys: readonly string[], fn: () => Promise<void>): Promise<void> {
    const signal = currentRenderSignal();
    const until = Date.now() + this.lockWaitMs;
    try {
      await withKeyLocks(
        `${this.bucket.identity}/${this.prefix}`,
        keys,
        async () => {
          if (!this.locks) return fn();
          const shared = keys.map((k) => `s3:${this.bucket.name}/${k}`);
          const r = await this.locks.withLocks(shared, fn, { waitMs: Math.max(0, until - Date.now()), signal });
          if (!r.ok) throw lockRefused(p, r);
        },
        { waitMs: this.lockWaitMs, signal },
      );
    } catch (e) {
      throw e instanceof LockWaitRefused ? lockRefused(p, e.refusal) : e;
    }
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

/** What a write had written when it failed, against what it reserved. */
interface Landed {
  bytes: number;
  entries: number;
}

/** The store cannot keep appends of several processes apart: refused at open, one line for the operator. */
class S3StoreRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'S3StoreRefused';
  }
}

function lockRefused(p: VirtualPath, r: LockRefusal): FileError {
  return r.reason === 'aborted'
    ? new FileError('E_FILE_FAILED', p.text, 'the render ended while waiting for the file; nothing was written', {
        reason: 'lock-aborted',
      })
    : new FileError('E_FILE_FAILED', p.text, `another writer held the file for ${r.waitedMs} ms; nothing was written`, {
        reason: 'lock-timeout',
      });
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
  if (e instanceof S3StoreRefused)
    return new FileError('E_FILE_FAILED', text, e.message, { reason: 'no-coordination' });
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
