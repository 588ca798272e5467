/**
 * One tenant's files in a local folder: the FileStore (file-store.ts) the files plugins use,
 * composed of the openat emulation (openat.ts: no link followed, nothing outside `rootDir`), the
 * per-path locks (locks.ts), the quota (quota.ts) and one file per operation (read.ts, stat.ts,
 * list.ts, write.ts, remove.ts, rename.ts); the folder walks all go through walk.ts.
 *
 * Layout: `rootDir/<root folder>/<segments...>`, the root folder mirroring the virtual root without
 * its `/files/` prefix (`/files/user` -> `user`, `/files/member/ext` -> `member/ext`).
 *
 * Every operation first re-validates the VirtualPath it is given (it may have been built by hand)
 * and refuses to write, remove or move a root; messages carry virtual paths only.
 */

import { fileExists } from './exists.js';
import type { FileStat, FileStore, FileStream, ListEntry, ListOptions } from './file-store.js';
import { listFolder } from './list.js';
import { OpenAt, type ResolutionMode } from './openat.js';
import { Quota, scanFolderUsage } from './quota.js';
import { openFileStream, readFile, readFileLines } from './read.js';
import { removeFile, removeFolder } from './remove.js';
import { renameFile } from './rename.js';
import { statPath } from './stat.js';
import { revalidate as canon, refuseRoot as notRoot, type VirtualPath } from './virtual-path.js';
import { appendRecord, sweepTempFiles, writeAtomic, type StepHook } from './write.js';

/** Default of TenantFilesOptions.maxStorageEntries: a large site's uploads, far from a file system's limits. */
export const DEFAULT_MAX_STORAGE_ENTRIES = 100_000;

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
  mode?: 'auto' | ResolutionMode;
  fileMode?: number;
  dirMode?: number;
  /** See StepHook (write.ts). */
  stepHook?: StepHook;
}

export interface ReadLinesOptions {
  /** A line longer than this many bytes (without its terminator) is E_SIZE_LIMIT. */
  maxLineBytes: number;
  /** Total bytes read; default maxReadBytes. */
  maxBytes?: number;
}

interface Opened {
  at: OpenAt;
  quota: Quota;
}

export class TenantFiles implements FileStore {
  private readonly opts: Required<Omit<TenantFilesOptions, 'stepHook'>> & Pick<TenantFilesOptions, 'stepHook'>;
  private opened: Promise<Opened> | undefined;

  constructor(opts: TenantFilesOptions) {
    const o = { maxStorageEntries: DEFAULT_MAX_STORAGE_ENTRIES, ...opts };
    for (const k of ['quotaBytes', 'maxReadBytes', 'maxEntries', 'maxStorageEntries'] as const) {
      if (!Number.isFinite(o[k]) || o[k] < 0) throw new TypeError(`TenantFiles: ${k} must be a non-negative number`);
    }
    if (typeof o.rootDir !== 'string' || o.rootDir === '') throw new TypeError('TenantFiles: rootDir required');
    this.opts = { mode: 'auto', fileMode: 0o644, dirMode: 0o755, ...o };
  }

  /** The root is resolved on first use; a failure (E_FILE_FAILED, no real path) is the answer of every later call too. */
  private open(): Promise<Opened> {
    this.opened ??= OpenAt.open(this.opts.rootDir, this.opts).then((at) => ({
      at,
      quota: new Quota(() => scanFolderUsage(at), this.opts),
    }));
    return this.opened;
  }

  /** Which resolution strategy is in use ('procfd' or 'lstat'). */
  async resolutionMode(): Promise<ResolutionMode> {
    return (await this.open()).at.mode;
  }

  async read(p0: VirtualPath): Promise<Uint8Array> {
    const p = notRoot(canon(p0), 'read');
    return readFile((await this.open()).at, p, this.opts.maxReadBytes);
  }

  async readStream(p0: VirtualPath): Promise<FileStream> {
    const p = notRoot(canon(p0), 'read');
    return openFileStream((await this.open()).at, p, this.opts.maxReadBytes);
  }

  /**
   * Lines of a text file, split on LF with a trailing CR removed, decoded as UTF-8 (invalid bytes
   * become U+FFFD). Each line at most maxLineBytes, the whole read at most maxBytes (default
   * maxReadBytes): E_SIZE_LIMIT otherwise.
   */
  async *readLines(p0: VirtualPath, o: ReadLinesOptions): AsyncGenerator<string, void, undefined> {
    const p = notRoot(canon(p0), 'read');
    const { at } = await this.open();
    yield* readFileLines(at, p, o.maxBytes ?? this.opts.maxReadBytes, o.maxLineBytes);
  }

  async stat(p0: VirtualPath): Promise<FileStat> {
    const p = canon(p0);
    return statPath((await this.open()).at, p);
  }

  /** true/false; a symlink on the path is still E_PATH_DENIED. */
  exists(p: VirtualPath): Promise<boolean> {
    return fileExists(this, p);
  }

  async list(p0: VirtualPath, o: ListOptions): Promise<ListEntry[]> {
    const p = canon(p0);
    return listFolder((await this.open()).at, p, o, this.opts.maxEntries);
  }

  async writeAtomic(p0: VirtualPath, data: Uint8Array): Promise<void> {
    const p = notRoot(canon(p0), 'write');
    const { at, quota } = await this.open();
    await writeAtomic(at, quota, p, data, this.opts.stepHook);
  }

  async appendRecord(p0: VirtualPath, data: Uint8Array): Promise<void> {
    const p = notRoot(canon(p0), 'write');
    const { at, quota } = await this.open();
    await appendRecord(at, quota, p, data);
  }

  async remove(p0: VirtualPath): Promise<void> {
    const p = notRoot(canon(p0), 'remove');
    const { at, quota } = await this.open();
    await removeFile(at, quota, p);
  }

  async removeDir(p0: VirtualPath, o: { recursive?: boolean } = {}): Promise<void> {
    const p = notRoot(canon(p0), 'remove');
    const { at, quota } = await this.open();
    await removeFolder(at, quota, p, o.recursive ?? true, this.opts.maxEntries);
  }

  async rename(from0: VirtualPath, to0: VirtualPath): Promise<void> {
    const from = canon(from0);
    const to = canon(to0);
    notRoot(from, 'move');
    notRoot(to, 'move onto');
    if (from.text === to.text) return;
    const { at, quota } = await this.open();
    await renameFile(at, quota, from, to);
  }

  /** Remove leftover temp files older than `olderThanMs` (after a crash). Returns the count. */
  async sweepTempFiles(olderThanMs = 60 * 60 * 1000): Promise<number> {
    const { at, quota } = await this.open();
    return sweepTempFiles(at, quota, olderThanMs);
  }

  /** Bytes used by regular files below rootDir (symlinks not followed, temp files included): a rescan. */
  async usageBytes(): Promise<number> {
    return (await (await this.open()).quota.rescan()).bytes;
  }

  /** Files and folders below rootDir, every kind of entry counted (a rescan, like usageBytes). */
  async usageEntries(): Promise<number> {
    return (await (await this.open()).quota.rescan()).entries;
  }
}
