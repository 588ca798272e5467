/**
 * One tenant's files: turns a canonical VirtualPath into a real file operation below `rootDir`.
 *
 * Layout: `rootDir/<root folder>/<segments...>`, the root folder mirroring the virtual root without
 * its `/files/` prefix (`/files/user` -> `user`, `/files/member/ext` -> `member/ext`).
 *
 * Symlinks (FS-06) and the check-then-use race (FS-07)
 * ----------------------------------------------------
 * Node has no openat()/openat2(). On Linux this module gets the same effect from procfs: it opens
 * `rootDir` as a directory handle, then walks one component at a time by opening
 * `/proc/self/fd/<parent fd>/<component>` with O_DIRECTORY|O_NOFOLLOW. The kernel resolves
 * `/proc/self/fd/N` to exactly the directory the handle holds, whatever happened to its path
 * since, and O_NOFOLLOW refuses a symlink as the last component. So every lookup is relative to an
 * already-verified directory and never follows a link: swapping a directory for a symlink between
 * steps gives ELOOP/ENOTDIR (E_PATH_DENIED), never the link's target. Files are opened, created,
 * renamed, unlinked and listed the same way (`/proc/self/fd/<dir fd>/<name>`). After a file is
 * opened, `readlink(/proc/self/fd/<file fd>)` must still lie inside the real rootDir (belt and
 * braces). Any symlink on the way, including the last component, is E_PATH_DENIED.
 *
 * Where /proc is not usable (mode 'lstat', e.g. macOS: development only), each component is
 * lstat-checked, the final component is opened with O_NOFOLLOW, and after open every component is
 * lstat-checked again, the file's fstat dev/ino must equal the lstat of the path, and the
 * components are checked once more. Static symlinks are always refused, but this mode is NOT
 * race-free: an attacker who can swap a directory for a link and back fast enough can win the
 * window between the checks (the FS-07 test measures it), and path-based mkdir/rename/unlink are
 * racy too. On Linux 'auto' therefore refuses to fall back to it.
 *
 * Other decisions
 *  - Regular files only: FIFOs, sockets and devices are E_PATH_DENIED (opened O_NONBLOCK so a FIFO
 *    cannot hang the open). Files with more than one hard link are E_PATH_DENIED for reads and
 *    appends (a hard link to another tenant's file cannot be told apart from a path).
 *  - Quota: counted before writing. writeAtomic counts `new size - size of the file it replaces`;
 *    appendRecord counts the record. Usage is scanned once (all regular files below rootDir,
 *    symlinks not followed) and then kept up to date by this instance's own writes and removals;
 *    `usageBytes()` rescans. Entries (files and folders, every kind below rootDir) are counted the
 *    same way against maxStorageEntries: a new file or folder is counted before it is made, so a
 *    loop of writes of empty files into new folders ends with E_QUOTA (finding HH-12).
 *  - writeAtomic: temp file `.smartcage-tmp-<random>` in the target's directory (O_CREAT|O_EXCL|
 *    O_NOFOLLOW), write, fsync, rename over the target, fsync the directory. Temp names start with
 *    a dot, which no virtual path can name, and list() never returns them.
 *  - appendRecord: one per-path async lock (shared by every TenantFiles of the same rootDir in this
 *    process) around open(O_APPEND) + write of the whole record; on a write error the file is
 *    truncated back to its previous size.
 *  - list(): virtual paths, sorted by name per directory, pre-order; symlinks, temp files, dotfiles
 *    and names that no canonical virtual path can name (not NFC, invalid UTF-8, control
 *    characters...) are skipped; E_SIZE_LIMIT past maxEntries results or 4x maxEntries scanned
 *    directory entries. Times are milliseconds since the epoch.
 *  - removeDir: never a root; recursive by default (symlinks inside are unlinked as links, never
 *    followed); bounded by the same scan budget as list().
 *  - rename: files only (rename_file "moves a file"); creates the destination's parent folders;
 *    never over a directory or a symlink.
 *  - Messages carry virtual paths only; fs errors are translated and dropped.
 */

import { constants as C } from 'node:fs';
import * as fsp from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { FileError, type FileCode } from './errors.js';
import { type VirtualPath, parseVirtualPath, segmentProblem } from './virtual-path.js';

export const TEMP_PREFIX = '.smartcage-tmp-';

/** Default of TenantFilesOptions.maxStorageEntries: a large site's uploads, far from a file system's limits. */
export const DEFAULT_MAX_STORAGE_ENTRIES = 100_000;

interface Usage {
  bytes: number;
  entries: number;
}

export type WriteStep = 'temp-created' | 'temp-written' | 'temp-synced' | 'before-rename' | 'renamed';

export interface TenantFilesOptions {
  /** Real directory holding this tenant's roots as subfolders. Must exist. */
  rootDir: string;
  quotaBytes: number;
  maxReadBytes: number;
  maxEntries: number;
  /**
   * Files and folders the storage may hold in all (E_QUOTA past it); default
   * DEFAULT_MAX_STORAGE_ENTRIES. Empty files and folders cost no bytes, so the byte quota alone
   * lets a loop of writes fill the file system with entries.
   */
  maxStorageEntries?: number;
  /**
   * 'procfd': fd-relative through /proc/self/fd (Linux; race-free). 'lstat': portable best-effort
   * fallback, NOT race-free (FS-07). 'auto' (default): 'procfd' on Linux (and an error if /proc is
   * not usable there), 'lstat' on other platforms (development only).
   */
  mode?: 'auto' | 'procfd' | 'lstat';
  fileMode?: number;
  dirMode?: number;
  /**
   * Test hook for atomicity tests: awaited between the steps of writeAtomic. If it throws, the
   * error propagates as is and NOTHING is cleaned up (a simulated crash).
   */
  stepHook?: (step: WriteStep, p: VirtualPath) => void | Promise<void>;
}

export interface FileStat {
  size: number;
  /** Milliseconds since the epoch. */
  ctime: number;
  mtime: number;
  isDir: boolean;
}

export interface ListEntry extends FileStat {
  /** Canonical virtual path. */
  path: string;
}

export interface ListOptions {
  recursive: boolean;
  maxDepth: number;
  /** Directory entries this listing may read (hidden and skipped ones included); at most, and by default, 4 x maxEntries + 64. */
  maxScanned?: number;
  /** Receives the number of directory entries read, also when the listing fails. */
  scanned?: { count: number };
}

export interface ReadLinesOptions {
  /** A line longer than this many bytes (without its terminator) is E_SIZE_LIMIT. */
  maxLineBytes: number;
  /** Total bytes read; default maxReadBytes. */
  maxBytes?: number;
}

// ---------------------------------------------------------------------------------------------
// Per-path locks (process-wide, keyed by real root + canonical virtual path).

const locks = new Map<string, Promise<void>>();

async function withLocks<T>(keys: string[], fn: () => Promise<T>): Promise<T> {
  const sorted = [...new Set(keys)].sort();
  const releases: (() => void)[] = [];
  try {
    for (const key of sorted) {
      const prev = locks.get(key) ?? Promise.resolve();
      let release!: () => void;
      const mine = new Promise<void>((r) => (release = r));
      const chained = prev.then(() => mine);
      locks.set(key, chained);
      releases.push(() => {
        release();
        if (locks.get(key) === chained) locks.delete(key);
      });
      await prev;
    }
    return await fn();
  } finally {
    for (const r of releases.reverse()) r();
  }
}

// ---------------------------------------------------------------------------------------------
// Directory references.

interface DirRef {
  /** A name for the directory itself usable by fs calls. */
  readonly self: string;
  /** Real segments below the real root (for the lstat-mode re-walk). */
  readonly rel: readonly string[];
  child(name: string): string;
  sync(): Promise<void>;
  close(): Promise<void>;
}

class FdDir implements DirRef {
  readonly self: string;
  constructor(
    readonly fh: FileHandle,
    readonly rel: readonly string[],
  ) {
    this.self = `/proc/self/fd/${fh.fd}`;
  }
  child(name: string): string {
    return `${this.self}/${name}`;
  }
  async sync(): Promise<void> {
    await this.fh.sync();
  }
  async close(): Promise<void> {
    await this.fh.close().catch(() => undefined);
  }
}

class PathDir implements DirRef {
  constructor(
    readonly self: string,
    readonly rel: readonly string[],
  ) {}
  child(name: string): string {
    return `${this.self}/${name}`;
  }
  async sync(): Promise<void> {
    const fh = await fsp.open(this.self, C.O_RDONLY | C.O_DIRECTORY | C.O_NOFOLLOW);
    try {
      await fh.sync();
    } finally {
      await fh.close();
    }
  }
  async close(): Promise<void> {}
}

interface Base {
  realRoot: string;
  mode: 'procfd' | 'lstat';
}

function errno(e: unknown): string | undefined {
  return typeof e === 'object' && e !== null && typeof (e as { code?: unknown }).code === 'string' ? (e as { code: string }).code : undefined;
}

/** Translate any failure into a FileError naming only the virtual path. */
function translate(e: unknown, p: VirtualPath | string, what: string): FileError {
  if (e instanceof FileError) return e;
  const text = typeof p === 'string' ? p : p.text;
  const code = errno(e);
  const mk = (c: FileCode, detail: string, reason: string) => new FileError(c, text, detail, { reason, sysCode: code });
  switch (code) {
    case 'ENOENT':
    case 'ENOTDIR':
      return mk('E_FILE_NOT_FOUND', 'no such file or directory', 'not-found');
    case 'ELOOP':
      return mk('E_PATH_DENIED', 'a symbolic link is on the path', 'symlink');
    case 'ENOSPC':
    case 'EDQUOT':
      return mk('E_QUOTA', 'storage full', 'storage-full');
    case 'EFBIG':
      return mk('E_SIZE_LIMIT', 'file too large', 'file-too-large');
    case 'EISDIR':
      return mk('E_FILE_FAILED', 'is a directory', 'is-directory');
    case 'ENOTEMPTY':
    case 'EEXIST':
      return mk('E_FILE_FAILED', 'directory not empty or target exists', 'exists');
    default:
      return mk('E_FILE_FAILED', `${what} failed${code ? ` (${code})` : ''}`, 'fs-error');
  }
}

function statOf(st: { size: number; ctimeMs: number; mtimeMs: number; isDirectory(): boolean }): FileStat {
  const isDir = st.isDirectory();
  return { size: isDir ? 0 : st.size, ctime: Math.floor(st.ctimeMs), mtime: Math.floor(st.mtimeMs), isDir };
}

/** Can `name` (as read from disk) be named by a canonical virtual path segment? */
function addressable(name: string): boolean {
  if (name.startsWith(TEMP_PREFIX)) return false;
  if (name.includes('\uFFFD')) return false; // invalid UTF-8 on disk decodes to U+FFFD
  if (name.normalize('NFC') !== name) return false;
  if (segmentProblem(name) !== null) return false;
  try {
    parseVirtualPath(`/files/user/${name}`);
    return true;
  } catch {
    return false;
  }
}

export class TenantFiles {
  private readonly opts: Required<Omit<TenantFilesOptions, 'stepHook'>> & Pick<TenantFilesOptions, 'stepHook'>;
  private basePromise: Promise<Base> | undefined;
  private used: number | undefined;
  /** Files and folders below rootDir (known once `used` is). */
  private usedEntries = 0;
  private usagePromise: Promise<Usage> | undefined;
  private inflight = 0;

  constructor(opts: TenantFilesOptions) {
    const o = { maxStorageEntries: DEFAULT_MAX_STORAGE_ENTRIES, ...opts };
    for (const k of ['quotaBytes', 'maxReadBytes', 'maxEntries', 'maxStorageEntries'] as const) {
      if (!Number.isFinite(o[k]) || o[k] < 0) throw new TypeError(`TenantFiles: ${k} must be a non-negative number`);
    }
    if (typeof o.rootDir !== 'string' || o.rootDir === '') throw new TypeError('TenantFiles: rootDir required');
    this.opts = { mode: 'auto', fileMode: 0o644, dirMode: 0o755, ...o };
  }

  // -------------------------------------------------------------------------------------------
  // Setup

  private base(): Promise<Base> {
    this.basePromise ??= this.init();
    return this.basePromise;
  }

  private async init(): Promise<Base> {
    let realRoot: string;
    try {
      realRoot = await fsp.realpath(this.opts.rootDir);
      const st = await fsp.stat(realRoot);
      if (!st.isDirectory()) throw new Error('not a directory');
    } catch {
      // Operator configuration error; still no real path in the message.
      throw new FileError('E_FILE_FAILED', '/files', 'tenant storage is not available', { reason: 'root-unavailable' });
    }
    if (realRoot === '/') throw new FileError('E_FILE_FAILED', '/files', 'tenant storage may not be /', { reason: 'root-unavailable' });
    let mode: 'procfd' | 'lstat' = 'lstat';
    if (this.opts.mode !== 'lstat' && process.platform === 'linux') {
      try {
        const fh = await fsp.open(realRoot, C.O_RDONLY | C.O_DIRECTORY);
        try {
          if ((await fsp.readlink(`/proc/self/fd/${fh.fd}`)) === realRoot) mode = 'procfd';
        } finally {
          await fh.close();
        }
      } catch {
        /* no procfs */
      }
    }
    // Fail closed: on Linux the race-free mode is required unless 'lstat' was asked for explicitly.
    if ((this.opts.mode === 'procfd' || (this.opts.mode === 'auto' && process.platform === 'linux')) && mode !== 'procfd') {
      throw new FileError('E_FILE_FAILED', '/files', '/proc/self/fd is not usable', { reason: 'no-procfs' });
    }
    return { realRoot, mode };
  }

  /** Which resolution strategy is in use ('procfd' or 'lstat'). */
  async resolutionMode(): Promise<'procfd' | 'lstat'> {
    return (await this.base()).mode;
  }

  /** Re-validate a VirtualPath (it may have been built by hand) and return the canonical one. */
  private canon(p: VirtualPath): VirtualPath {
    const text = (p as { text?: unknown } | null)?.text;
    const q = parseVirtualPath(text);
    if (p.root !== q.root || p.segments.length !== q.segments.length || p.segments.some((s, i) => s !== q.segments[i])) {
      throw new FileError('E_PATH_DENIED', text, 'inconsistent virtual path object', { reason: 'forged-path' });
    }
    return q;
  }

  private lockKey(b: Base, p: VirtualPath): string {
    return `${b.realRoot}\0${p.text}`;
  }

  private realSegments(p: VirtualPath): string[] {
    return [...p.root.slice('/files/'.length).split('/'), ...p.segments];
  }

  // -------------------------------------------------------------------------------------------
  // Walking

  private async openRoot(b: Base): Promise<DirRef> {
    if (b.mode === 'procfd') return new FdDir(await fsp.open(b.realRoot, C.O_RDONLY | C.O_DIRECTORY | C.O_NOFOLLOW), []);
    return new PathDir(b.realRoot, []);
  }

  /** Step from `dir` into its subdirectory `seg` without following links. Does not close `dir`. */
  private async descend(b: Base, dir: DirRef, seg: string, create: boolean, p: VirtualPath): Promise<DirRef> {
    const target = dir.child(seg);
    const classify = async (e: unknown): Promise<FileError> => {
      const code = errno(e);
      if (code === 'ELOOP' || code === 'ENOTDIR' || code === 'EEXIST') {
        const st = await fsp.lstat(target).catch(() => undefined);
        if (st?.isSymbolicLink() || code === 'ELOOP') return new FileError('E_PATH_DENIED', p.text, 'a symbolic link is on the path', { reason: 'symlink', sysCode: code });
        if (st && !st.isDirectory()) {
          return create
            ? new FileError('E_FILE_FAILED', p.text, 'a file is in the way of a folder', { reason: 'not-a-directory', sysCode: code })
            : new FileError('E_FILE_NOT_FOUND', p.text, 'no such file or directory', { reason: 'not-found', sysCode: code });
        }
      }
      return translate(e, p, 'open');
    };
    if (b.mode === 'procfd') {
      const flags = C.O_RDONLY | C.O_DIRECTORY | C.O_NOFOLLOW;
      try {
        return new FdDir(await fsp.open(target, flags), [...dir.rel, seg]);
      } catch (e) {
        if (!(create && errno(e) === 'ENOENT')) throw await classify(e);
      }
      this.reserveEntries(1, p);
      try {
        await fsp.mkdir(target, this.opts.dirMode);
      } catch (e) {
        this.releaseEntries(1);
        if (errno(e) !== 'EEXIST') throw await classify(e);
      }
      try {
        return new FdDir(await fsp.open(target, flags), [...dir.rel, seg]);
      } catch (e) {
        throw await classify(e);
      }
    }
    // lstat mode
    let st = await fsp.lstat(target).catch((e: unknown) => e);
    if (st instanceof Error || !(st && typeof st === 'object' && 'isSymbolicLink' in st)) {
      if (!(create && errno(st) === 'ENOENT')) throw translate(st, p, 'lstat');
      this.reserveEntries(1, p);
      try {
        await fsp.mkdir(target, this.opts.dirMode);
      } catch (e) {
        this.releaseEntries(1);
        if (errno(e) !== 'EEXIST') throw translate(e, p, 'mkdir');
      }
      st = await fsp.lstat(target).catch((e: unknown) => e);
      if (st instanceof Error || !(st && typeof st === 'object' && 'isSymbolicLink' in st)) throw translate(st, p, 'lstat');
    }
    const s = st as import('node:fs').Stats;
    if (s.isSymbolicLink()) throw new FileError('E_PATH_DENIED', p.text, 'a symbolic link is on the path', { reason: 'symlink' });
    if (!s.isDirectory()) {
      throw create
        ? new FileError('E_FILE_FAILED', p.text, 'a file is in the way of a folder', { reason: 'not-a-directory' })
        : new FileError('E_FILE_NOT_FOUND', p.text, 'no such file or directory', { reason: 'not-found' });
    }
    return new PathDir(target, [...dir.rel, seg]);
  }

  /** Open the directory named by real segments `segs` (below the real root). */
  private async openDir(b: Base, segs: readonly string[], create: boolean, p: VirtualPath): Promise<DirRef> {
    let dir = await this.openRoot(b);
    try {
      for (const seg of segs) {
        const next = await this.descend(b, dir, seg, create, p);
        await dir.close();
        dir = next;
      }
      return dir;
    } catch (e) {
      await dir.close();
      throw translate(e, p, 'open');
    }
  }

  /** lstat-mode re-walk: every component a real directory, no links. */
  private async rewalkOk(b: Base, rel: readonly string[]): Promise<boolean> {
    let path = b.realRoot;
    for (const seg of rel) {
      path = `${path}/${seg}`;
      const st = await fsp.lstat(path).catch(() => undefined);
      if (!st || st.isSymbolicLink() || !st.isDirectory()) return false;
    }
    return true;
  }

  /**
   * Open `name` in `dir` (never following a link), then prove the opened file is inside the root.
   * Returns the handle and its fstat; regular files only.
   */
  private async openIn(b: Base, dir: DirRef, name: string, flags: number, p: VirtualPath): Promise<{ fh: FileHandle; st: import('node:fs').Stats }> {
    // lstat mode: a legitimate concurrent replacement (rename over the file) also changes the
    // inode between open and re-check. Each attempt is verified on its own, so retrying is safe.
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.openInOnce(b, dir, name, flags, p);
      } catch (e) {
        if (!(b.mode === 'lstat' && attempt < 3 && (flags & C.O_CREAT) === 0 && e instanceof FileError && e.reason === 'path-changed')) throw e;
      }
    }
  }

  private async openInOnce(b: Base, dir: DirRef, name: string, flags: number, p: VirtualPath): Promise<{ fh: FileHandle; st: import('node:fs').Stats }> {
    const target = dir.child(name);
    if (b.mode === 'lstat') {
      const pre = await fsp.lstat(target).catch(() => undefined);
      if (pre?.isSymbolicLink()) throw new FileError('E_PATH_DENIED', p.text, 'a symbolic link is on the path', { reason: 'symlink' });
    }
    let fh: FileHandle;
    try {
      fh = await fsp.open(target, flags | C.O_NOFOLLOW | C.O_NONBLOCK, this.opts.fileMode);
    } catch (e) {
      const code = errno(e);
      if (code === 'ELOOP') throw new FileError('E_PATH_DENIED', p.text, 'a symbolic link is on the path', { reason: 'symlink', sysCode: code });
      if (code === 'ENXIO' || code === 'ENODEV') throw new FileError('E_PATH_DENIED', p.text, 'not a regular file', { reason: 'not-regular', sysCode: code });
      throw translate(e, p, 'open');
    }
    try {
      const st = await fh.stat();
      if (st.isDirectory()) throw new FileError('E_FILE_FAILED', p.text, 'is a directory', { reason: 'is-directory' });
      if (!st.isFile()) throw new FileError('E_PATH_DENIED', p.text, 'not a regular file', { reason: 'not-regular' });
      if (b.mode === 'procfd') {
        const real = await fsp.readlink(`/proc/self/fd/${fh.fd}`).catch(() => '');
        if (!real.startsWith(b.realRoot + '/')) throw new FileError('E_PATH_DENIED', p.text, 'the file is outside the tenant storage', { reason: 'escaped-root' });
      } else {
        // Best effort only (see header): re-walk, compare the inode, re-walk again. A path that is
        // a link at the comparison but not at either re-walk still gets through.
        const ok = await this.rewalkOk(b, dir.rel);
        const post = ok ? await fsp.lstat(target).catch(() => undefined) : undefined;
        const ok2 = post ? await this.rewalkOk(b, dir.rel) : false;
        if (!post || !ok2 || post.isSymbolicLink() || post.dev !== st.dev || post.ino !== st.ino) {
          throw new FileError('E_PATH_DENIED', p.text, 'the path changed while it was opened', { reason: 'path-changed' });
        }
      }
      return { fh, st };
    } catch (e) {
      await fh.close().catch(() => undefined);
      throw e;
    }
  }

  private assertNotRoot(p: VirtualPath, what: string): void {
    if (p.segments.length === 0) throw new FileError('E_PATH_DENIED', p.text, `cannot ${what} a root`, { reason: 'root-itself' });
  }

  /** Open the parent directory of a file path. */
  private async parentOf(b: Base, p: VirtualPath, create: boolean): Promise<{ dir: DirRef; name: string }> {
    const segs = this.realSegments(p);
    const name = segs.pop() as string;
    return { dir: await this.openDir(b, segs, create, p), name };
  }

  // -------------------------------------------------------------------------------------------
  // Quota

  private async usageCache(): Promise<number> {
    if (this.used !== undefined) return this.used;
    this.usagePromise ??= this.scanUsage().finally(() => (this.usagePromise = undefined));
    const u = await this.usagePromise;
    if (this.used === undefined) {
      this.used = u.bytes;
      this.usedEntries = u.entries;
    }
    return this.used;
  }

  /** Counts `n` new files or folders, before they are made: E_QUOTA past maxStorageEntries. */
  private reserveEntries(n: number, p: VirtualPath): void {
    if (this.usedEntries + n > this.opts.maxStorageEntries) {
      throw new FileError('E_QUOTA', p.text, `the storage holds at most ${this.opts.maxStorageEntries} files and folders`, { reason: 'quota' });
    }
    this.usedEntries += n;
  }

  private releaseEntries(n: number): void {
    this.usedEntries = Math.max(0, this.usedEntries - n);
  }

  private reserve(delta: number, p: VirtualPath): void {
    const used = this.used ?? 0;
    if (delta > 0 && used + delta > this.opts.quotaBytes) {
      throw new FileError('E_QUOTA', p.text, `storage quota of ${this.opts.quotaBytes} bytes exceeded`, { reason: 'quota' });
    }
    this.used = used + delta;
  }

  private release(delta: number): void {
    if (this.used !== undefined) this.used -= delta;
  }

  /** Bytes used by regular files below rootDir (symlinks not followed, temp files included). */
  async usageBytes(): Promise<number> {
    return (await this.rescan()).bytes;
  }

  /** Files and folders below rootDir, every kind of entry counted (a rescan, like usageBytes). */
  async usageEntries(): Promise<number> {
    return (await this.rescan()).entries;
  }

  private async rescan(): Promise<Usage> {
    const u = await this.scanUsage();
    if (this.inflight === 0) {
      this.used = u.bytes;
      this.usedEntries = u.entries;
    }
    return u;
  }

  private async scanUsage(): Promise<Usage> {
    const b = await this.base();
    const root = await this.openRoot(b);
    let total = 0;
    let entries = 0;
    const walk = async (dir: DirRef): Promise<void> => {
      const d = await fsp.opendir(dir.self);
      for await (const ent of d) {
        entries++;
        const st = await fsp.lstat(dir.child(ent.name)).catch(() => undefined);
        if (!st || st.isSymbolicLink()) continue;
        if (st.isFile()) total += st.size;
        else if (st.isDirectory()) {
          const sub = await this.descend(b, dir, ent.name, false, parseVirtualPath('/files/user')).catch(() => undefined);
          if (!sub) continue;
          try {
            await walk(sub);
          } finally {
            await sub.close();
          }
        }
      }
    };
    try {
      await walk(root);
    } catch (e) {
      throw translate(e, '/files', 'usage scan');
    } finally {
      await root.close();
    }
    return { bytes: total, entries };
  }

  // -------------------------------------------------------------------------------------------
  // Reads

  /** Whole file, at most maxReadBytes (E_SIZE_LIMIT otherwise), read in chunks. */
  async read(p0: VirtualPath): Promise<Uint8Array> {
    const p = this.canon(p0);
    this.assertNotRoot(p, 'read');
    const b = await this.base();
    const { dir, name } = await this.parentOf(b, p, false);
    let fh: FileHandle | undefined;
    try {
      const o = await this.openIn(b, dir, name, C.O_RDONLY, p);
      fh = o.fh;
      if (o.st.nlink > 1) throw new FileError('E_PATH_DENIED', p.text, 'file has several hard links', { reason: 'hard-link' });
      const max = this.opts.maxReadBytes;
      if (o.st.size > max) throw new FileError('E_SIZE_LIMIT', p.text, `larger than ${max} bytes`, { reason: 'read-limit' });
      const chunks: Buffer[] = [];
      let total = 0;
      for (;;) {
        const want = Math.min(64 * 1024, max + 1 - total);
        const buf = Buffer.allocUnsafe(Math.max(want, 1));
        const { bytesRead } = await fh.read(buf, 0, buf.length, null);
        if (bytesRead === 0) break;
        total += bytesRead;
        if (total > max) throw new FileError('E_SIZE_LIMIT', p.text, `larger than ${max} bytes`, { reason: 'read-limit' });
        chunks.push(bytesRead === buf.length ? buf : buf.subarray(0, bytesRead));
      }
      const out = Buffer.concat(chunks, total);
      return new Uint8Array(out.buffer, out.byteOffset, out.length);
    } catch (e) {
      throw translate(e, p, 'read');
    } finally {
      await fh?.close().catch(() => undefined);
      await dir.close();
    }
  }

  /**
   * Lines of a text file (read_file's row iteration), split on LF with a trailing CR removed,
   * decoded as UTF-8 (invalid bytes become U+FFFD). Each line at most maxLineBytes, the whole
   * read at most maxBytes (default maxReadBytes): E_SIZE_LIMIT otherwise.
   */
  async *readLines(p0: VirtualPath, o: ReadLinesOptions): AsyncGenerator<string, void, undefined> {
    const p = this.canon(p0);
    this.assertNotRoot(p, 'read');
    const b = await this.base();
    const maxBytes = o.maxBytes ?? this.opts.maxReadBytes;
    const { dir, name } = await this.parentOf(b, p, false);
    let fh: FileHandle | undefined;
    const dec = new TextDecoder('utf-8');
    try {
      try {
        const opened = await this.openIn(b, dir, name, C.O_RDONLY, p);
        fh = opened.fh;
        if (opened.st.nlink > 1) throw new FileError('E_PATH_DENIED', p.text, 'file has several hard links', { reason: 'hard-link' });
      } catch (e) {
        throw translate(e, p, 'read');
      }
      let pending: Buffer = Buffer.alloc(0);
      let total = 0;
      const buf = Buffer.allocUnsafe(64 * 1024);
      const lineOf = (bytes: Buffer): string => {
        const end = bytes.length > 0 && bytes[bytes.length - 1] === 0x0d ? bytes.length - 1 : bytes.length;
        return dec.decode(bytes.subarray(0, end));
      };
      for (;;) {
        let bytesRead: number;
        try {
          ({ bytesRead } = await fh.read(buf, 0, buf.length, null));
        } catch (e) {
          throw translate(e, p, 'read');
        }
        if (bytesRead === 0) break;
        total += bytesRead;
        if (total > maxBytes) throw new FileError('E_SIZE_LIMIT', p.text, `larger than ${maxBytes} bytes`, { reason: 'read-limit' });
        let data = Buffer.concat([pending, buf.subarray(0, bytesRead)]);
        let nl: number;
        while ((nl = data.indexOf(0x0a)) >= 0) {
          const line = data.subarray(0, nl);
          data = data.subarray(nl + 1);
          if (line.length - (line[line.length - 1] === 0x0d ? 1 : 0) > o.maxLineBytes) {
            throw new FileError('E_SIZE_LIMIT', p.text, `a line is longer than ${o.maxLineBytes} bytes`, { reason: 'line-limit' });
          }
          yield lineOf(line);
        }
        if (data.length > o.maxLineBytes + 1) throw new FileError('E_SIZE_LIMIT', p.text, `a line is longer than ${o.maxLineBytes} bytes`, { reason: 'line-limit' });
        pending = Buffer.from(data);
      }
      if (pending.length > 0) {
        if (pending.length - (pending[pending.length - 1] === 0x0d ? 1 : 0) > o.maxLineBytes) {
          throw new FileError('E_SIZE_LIMIT', p.text, `a line is longer than ${o.maxLineBytes} bytes`, { reason: 'line-limit' });
        }
        yield lineOf(pending);
      }
    } finally {
      await fh?.close().catch(() => undefined);
      await dir.close();
    }
  }

  async stat(p0: VirtualPath): Promise<FileStat> {
    const p = this.canon(p0);
    const b = await this.base();
    if (p.segments.length === 0) {
      const dir = await this.openDir(b, this.realSegments(p), false, p);
      try {
        return statOf(await fsp.stat(dir.self));
      } catch (e) {
        throw translate(e, p, 'stat');
      } finally {
        await dir.close();
      }
    }
    const { dir, name } = await this.parentOf(b, p, false);
    try {
      const st = await fsp.lstat(dir.child(name));
      if (st.isSymbolicLink()) throw new FileError('E_PATH_DENIED', p.text, 'a symbolic link is on the path', { reason: 'symlink' });
      if (!st.isFile() && !st.isDirectory()) throw new FileError('E_PATH_DENIED', p.text, 'not a regular file', { reason: 'not-regular' });
      return statOf(st);
    } catch (e) {
      throw translate(e, p, 'stat');
    } finally {
      await dir.close();
    }
  }

  /** true/false; a symlink on the path is still E_PATH_DENIED. */
  async exists(p: VirtualPath): Promise<boolean> {
    try {
      await this.stat(p);
      return true;
    } catch (e) {
      if (e instanceof FileError && e.code === 'E_FILE_NOT_FOUND') return false;
      throw e;
    }
  }

  /** Entries below a folder as virtual paths (see the header for what is skipped). */
  async list(p0: VirtualPath, o: ListOptions): Promise<ListEntry[]> {
    const p = this.canon(p0);
    const b = await this.base();
    const out: ListEntry[] = [];
    const scanBudget = Math.min(this.opts.maxEntries * 4 + 64, o.maxScanned ?? Infinity);
    let scanned = 0;
    const counted = o.scanned;
    if (counted) counted.count = 0;
    const maxDepth = o.recursive ? Math.max(1, Math.floor(o.maxDepth)) : 1;
    const dir = await this.openDir(b, this.realSegments(p), false, p);
    const walk = async (d: DirRef, prefix: string, depth: number): Promise<void> => {
      const names: string[] = [];
      // for-await closes the directory handle on completion and when the loop throws
      for await (const ent of await fsp.opendir(d.self)) {
        scanned++;
        if (counted) counted.count = scanned;
        if (scanned > scanBudget) throw new FileError('E_SIZE_LIMIT', p.text, `more than ${scanBudget} directory entries scanned`, { reason: 'entry-limit' });
        if (addressable(ent.name)) names.push(ent.name);
      }
      names.sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
      for (const name of names) {
        const st = await fsp.lstat(d.child(name)).catch(() => undefined);
        if (!st || st.isSymbolicLink() || !(st.isFile() || st.isDirectory())) continue;
        const vpath = `${prefix}/${name}`;
        if (out.length >= this.opts.maxEntries) throw new FileError('E_SIZE_LIMIT', p.text, `more than ${this.opts.maxEntries} entries`, { reason: 'entry-limit' });
        out.push({ path: vpath, ...statOf(st) });
        if (st.isDirectory() && depth < maxDepth) {
          let sub: DirRef;
          try {
            sub = await this.descend(b, d, name, false, p);
          } catch (e) {
            if (e instanceof FileError && (e.code === 'E_PATH_DENIED' || e.code === 'E_FILE_NOT_FOUND')) continue; // swapped or gone
            throw e;
          }
          try {
            await walk(sub, vpath, depth + 1);
          } finally {
            await sub.close();
          }
        }
      }
    };
    try {
      await walk(dir, p.text, 1);
      return out;
    } catch (e) {
      throw translate(e, p, 'list');
    } finally {
      await dir.close();
    }
  }

  // -------------------------------------------------------------------------------------------
  // Writes

  private async hook(step: WriteStep, p: VirtualPath): Promise<void> {
    if (this.opts.stepHook) await this.opts.stepHook(step, p);
  }

  /** Replace (or create) a file atomically: temp file in the same folder, fsync, rename, fsync folder. */
  async writeAtomic(p0: VirtualPath, data: Uint8Array): Promise<void> {
    const p = this.canon(p0);
    this.assertNotRoot(p, 'write');
    const b = await this.base();
    await this.usageCache();
    this.inflight++;
    try {
      await withLocks([this.lockKey(b, p)], async () => {
        const { dir, name } = await this.parentOf(b, p, true);
        let reserved = 0;
        let newEntry = 0;
        let tmp: string | undefined;
        let fh: FileHandle | undefined;
        let crashed = false;
        const step = async (s: WriteStep): Promise<void> => {
          try {
            await this.hook(s, p);
          } catch (e) {
            crashed = true;
            throw e;
          }
        };
        try {
          const old = await fsp.lstat(dir.child(name)).catch((e: unknown) => (errno(e) === 'ENOENT' ? undefined : Promise.reject(e)));
          if (old?.isSymbolicLink()) throw new FileError('E_PATH_DENIED', p.text, 'a symbolic link is on the path', { reason: 'symlink' });
          if (old && old.isDirectory()) throw new FileError('E_FILE_FAILED', p.text, 'is a directory', { reason: 'is-directory' });
          if (old && !old.isFile()) throw new FileError('E_PATH_DENIED', p.text, 'not a regular file', { reason: 'not-regular' });
          const delta = data.length - (old ? old.size : 0);
          this.reserve(delta, p);
          reserved = delta;
          if (!old) {
            this.reserveEntries(1, p);
            newEntry = 1;
          }
          tmp = TEMP_PREFIX + randomBytes(12).toString('hex');
          const o = await this.openIn(b, dir, tmp, C.O_WRONLY | C.O_CREAT | C.O_EXCL, p);
          fh = o.fh;
          await step('temp-created');
          let off = 0;
          while (off < data.length) {
            const { bytesWritten } = await fh.write(data, off, data.length - off, null);
            off += bytesWritten;
          }
          await step('temp-written');
          await fh.sync();
          await step('temp-synced');
          await fh.close();
          fh = undefined;
          await step('before-rename');
          await fsp.rename(dir.child(tmp), dir.child(name));
          tmp = undefined;
          await step('renamed');
          await dir.sync().catch(() => undefined);
        } catch (e) {
          if (crashed) {
            this.used = undefined; // simulated crash: in-memory accounting is void, rescan later
            throw e;
          }
          await fh?.close().catch(() => undefined);
          if (tmp !== undefined) await fsp.unlink(dir.child(tmp)).catch(() => undefined);
          this.release(reserved);
          this.releaseEntries(newEntry);
          throw translate(e, p, 'write');
        } finally {
          if (crashed) await fh?.close().catch(() => undefined);
          await dir.close();
        }
      });
    } finally {
      this.inflight--;
    }
  }

  /** Append one whole record under a per-path lock; on failure the file is cut back. */
  async appendRecord(p0: VirtualPath, data: Uint8Array): Promise<void> {
    const p = this.canon(p0);
    this.assertNotRoot(p, 'write');
    const b = await this.base();
    await this.usageCache();
    this.inflight++;
    try {
      await withLocks([this.lockKey(b, p)], async () => {
        const { dir, name } = await this.parentOf(b, p, true);
        let fh: FileHandle | undefined;
        let reserved = 0;
        let before = -1;
        let newEntry = 0;
        try {
          // Under the path's lock: nothing else of this process creates it in between.
          const existed = await fsp.lstat(dir.child(name)).then(
            () => true,
            (e: unknown) => (errno(e) === 'ENOENT' ? false : Promise.reject(e)),
          );
          if (!existed) {
            this.reserveEntries(1, p);
            newEntry = 1;
          }
          const o = await this.openIn(b, dir, name, C.O_WRONLY | C.O_APPEND | C.O_CREAT, p);
          fh = o.fh;
          if (o.st.nlink > 1) throw new FileError('E_PATH_DENIED', p.text, 'file has several hard links', { reason: 'hard-link' });
          this.reserve(data.length, p);
          reserved = data.length;
          before = o.st.size;
          let off = 0;
          while (off < data.length) {
            const { bytesWritten } = await fh.write(data, off, data.length - off, null);
            off += bytesWritten;
          }
          await fh.datasync();
        } catch (e) {
          if (fh && before >= 0) await fh.truncate(before).catch(() => undefined);
          this.release(reserved);
          // A file this call created stays (empty) when the write failed after the open.
          if (!fh) this.releaseEntries(newEntry);
          throw translate(e, p, 'append');
        } finally {
          await fh?.close().catch(() => undefined);
          await dir.close();
        }
      });
    } finally {
      this.inflight--;
    }
  }

  /** Remove one file (not a folder, never a root). */
  async remove(p0: VirtualPath): Promise<void> {
    const p = this.canon(p0);
    this.assertNotRoot(p, 'remove');
    const b = await this.base();
    await this.usageCache();
    await withLocks([this.lockKey(b, p)], async () => {
      const { dir, name } = await this.parentOf(b, p, false);
      try {
        const st = await fsp.lstat(dir.child(name));
        if (st.isSymbolicLink()) throw new FileError('E_PATH_DENIED', p.text, 'a symbolic link is on the path', { reason: 'symlink' });
        if (st.isDirectory()) throw new FileError('E_FILE_FAILED', p.text, 'is a directory', { reason: 'is-directory' });
        if (!st.isFile()) throw new FileError('E_PATH_DENIED', p.text, 'not a regular file', { reason: 'not-regular' });
        await fsp.unlink(dir.child(name));
        this.release(st.size);
        this.releaseEntries(1);
      } catch (e) {
        throw translate(e, p, 'remove');
      } finally {
        await dir.close();
      }
    });
  }

  /** Remove a folder (never a root). recursive (default true): its content too. */
  async removeDir(p0: VirtualPath, o: { recursive?: boolean } = {}): Promise<void> {
    const p = this.canon(p0);
    this.assertNotRoot(p, 'remove');
    const recursive = o.recursive ?? true;
    const b = await this.base();
    await this.usageCache();
    await withLocks([this.lockKey(b, p)], async () => {
      const { dir, name } = await this.parentOf(b, p, false);
      let budget = this.opts.maxEntries * 4 + 64;
      const empty = async (d: DirRef): Promise<void> => {
        const names: string[] = [];
        for await (const ent of await fsp.opendir(d.self)) {
          if (--budget < 0) throw new FileError('E_SIZE_LIMIT', p.text, 'too many entries to remove', { reason: 'entry-limit' });
          names.push(ent.name);
        }
        for (const n of names) {
          const st = await fsp.lstat(d.child(n));
          if (st.isDirectory()) {
            const sub = await this.descend(b, d, n, false, p);
            try {
              await empty(sub);
            } finally {
              await sub.close();
            }
            await fsp.rmdir(d.child(n));
          } else {
            // files, symlinks (the link itself, never its target), other node types
            await fsp.unlink(d.child(n));
            if (st.isFile()) this.release(st.size);
          }
          this.releaseEntries(1);
        }
      };
      try {
        const st = await fsp.lstat(dir.child(name));
        if (st.isSymbolicLink()) throw new FileError('E_PATH_DENIED', p.text, 'a symbolic link is on the path', { reason: 'symlink' });
        if (!st.isDirectory()) throw new FileError('E_FILE_FAILED', p.text, 'not a folder', { reason: 'not-a-directory' });
        if (recursive) {
          const sub = await this.descend(b, dir, name, false, p);
          try {
            await empty(sub);
          } finally {
            await sub.close();
          }
        }
        await fsp.rmdir(dir.child(name));
        this.releaseEntries(1);
      } catch (e) {
        throw translate(e, p, 'remove folder');
      } finally {
        await dir.close();
      }
    });
  }

  /** Move a file; the destination's folders are created; never over a folder or a link. */
  async rename(from0: VirtualPath, to0: VirtualPath): Promise<void> {
    const from = this.canon(from0);
    const to = this.canon(to0);
    this.assertNotRoot(from, 'move');
    this.assertNotRoot(to, 'move onto');
    if (from.text === to.text) return;
    const b = await this.base();
    await this.usageCache();
    await withLocks([this.lockKey(b, from), this.lockKey(b, to)], async () => {
      const src = await this.parentOf(b, from, false);
      let dst: { dir: DirRef; name: string } | undefined;
      try {
        const st = await fsp.lstat(src.dir.child(src.name)).catch((e: unknown) => Promise.reject(translate(e, from, 'rename')));
        if (st.isSymbolicLink()) throw new FileError('E_PATH_DENIED', from.text, 'a symbolic link is on the path', { reason: 'symlink' });
        if (!st.isFile()) throw new FileError('E_FILE_FAILED', from.text, 'only files can be moved', { reason: 'not-a-file' });
        dst = await this.parentOf(b, to, true);
        const old = await fsp.lstat(dst.dir.child(dst.name)).catch((e: unknown) => (errno(e) === 'ENOENT' ? undefined : Promise.reject(translate(e, to, 'rename'))));
        if (old?.isSymbolicLink()) throw new FileError('E_PATH_DENIED', to.text, 'a symbolic link is on the path', { reason: 'symlink' });
        if (old && !old.isFile()) throw new FileError('E_FILE_FAILED', to.text, 'the destination is not a file', { reason: 'is-directory' });
        if (b.mode === 'lstat' && !((await this.rewalkOk(b, src.dir.rel)) && (await this.rewalkOk(b, dst.dir.rel)))) {
          throw new FileError('E_PATH_DENIED', from.text, 'the path changed during the move', { reason: 'escaped-root' });
        }
        await fsp.rename(src.dir.child(src.name), dst.dir.child(dst.name)).catch((e: unknown) => Promise.reject(translate(e, from, 'rename')));
        if (old) {
          this.release(old.size);
          this.releaseEntries(1);
        }
        await dst.dir.sync().catch(() => undefined);
        await src.dir.sync().catch(() => undefined);
      } finally {
        await src.dir.close();
        await dst?.dir.close();
      }
    });
  }

  /** Remove leftover `.smartcage-tmp-*` files older than `olderThanMs` (after a crash). Returns the count. */
  async sweepTempFiles(olderThanMs = 60 * 60 * 1000): Promise<number> {
    const b = await this.base();
    const root = await this.openRoot(b);
    const limit = Date.now() - olderThanMs;
    let n = 0;
    const walk = async (d: DirRef): Promise<void> => {
      for await (const ent of await fsp.opendir(d.self)) {
        const st = await fsp.lstat(d.child(ent.name)).catch(() => undefined);
        if (!st || st.isSymbolicLink()) continue;
        if (st.isFile() && ent.name.startsWith(TEMP_PREFIX) && st.mtimeMs <= limit) {
          await fsp.unlink(d.child(ent.name)).catch(() => undefined);
          n++;
        } else if (st.isDirectory()) {
          const sub = await this.descend(b, d, ent.name, false, parseVirtualPath('/files/user')).catch(() => undefined);
          if (!sub) continue;
          try {
            await walk(sub);
          } finally {
            await sub.close();
          }
        }
      }
    };
    try {
      await walk(root);
    } finally {
      await root.close();
    }
    this.used = undefined;
    return n;
  }
}
