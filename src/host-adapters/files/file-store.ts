/**
 * FileStore: one tenant's file storage, as the files plugins use it (src/host-plugins/
 * files/). HostAdapters.files gives one per tenant; TenantFiles (tenant-files.ts) is the
 * implementation over a local folder, and another storage can be plugged in by implementing this.
 */

import type { VirtualPath } from './virtual-path.js';

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

/**
 * A file opened for reading in chunks (FileStore.readStream): its size when opened and its bytes,
 * read as they are consumed, so a large file is served with bounded memory. `close` releases it
 * when the reader stops early; reading to the end releases it too.
 */
export interface FileStream {
  size: number;
  chunks: AsyncIterable<Uint8Array>;
  close(): Promise<void>;
}

/**
 * What a store is given, and what it must guarantee (the plugins check none of the latter):
 *
 * Given
 *  - Paths are virtual and already checked: every path comes from `parseVirtualPath` (canonical:
 *    NFC, under one of KNOWN_ROOTS, no `.`/`..`, no dotfile, no empty segment) through the calling
 *    plugin's root rule (`checkPluginPath`, plugin-roots.ts), or is a name the host generated
 *    under /files/temp. Which roots a plugin may use is decided there, not here.
 *  - The store is asked for by the render identity's tenant (`files(identity.tenant)`), never a
 *    tenant a template named. Calls may come concurrently, from several renders of the tenant.
 *
 * Guaranteed by the store
 *  - Confinement: a path reaches this tenant's storage and nothing else, whatever the storage
 *    could alias (links, case folding, another tenant's prefix). TenantFiles: no symbolic link is
 *    ever followed, no check-then-use race (openat.ts), regular files and folders only, no file
 *    with several hard links read or appended to.
 *  - Roots: a root itself (`segments` empty) may be listed and stat'ed, but writeAtomic,
 *    appendRecord, remove, removeDir and rename refuse it (E_PATH_DENIED) even though the
 *    plugins' rules already deny roots to writing attributes (FS-12).
 *  - Limits: the store enforces every storage limit. A write past the byte quota or the count of
 *    files and folders is refused before anything is written (E_QUOTA); a read past its size cap
 *    is E_SIZE_LIMIT; a listing past its entry cap, or past the directory entries it may read
 *    (`maxScanned`), is E_SIZE_LIMIT, and `scanned.count` is set also then (read_dir's budget of
 *    directory entries per render rests on it).
 *  - Errors are FileError (errors.ts). The code decides what the template sees: E_PATH_DENIED,
 *    E_QUOTA and E_SIZE_LIMIT are refusals (always an error); E_FILE_NOT_FOUND and E_FILE_FAILED
 *    are failures of the operation (status_var=false where the plugin has one). The message
 *    reaches the template: it names the virtual path only, never a real path, host or key. Any
 *    rejection without an E_ code becomes E_HOST_FAILED, its message dropped.
 *  - writeAtomic: a reader sees the old content or the new, never part of it. appendRecord: the
 *    record is there whole or not at all, and concurrent appends to one path never interleave.
 *  - list: pre-order, names sorted per folder; links, dotfiles, temp files and names no
 *    virtual path can name are left out; each `path` is a canonical virtual path (templates hand
 *    it back to read_file and remove_file).
 */
export interface FileStore {
  /** The whole file, at most the store's read cap. */
  read(p: VirtualPath): Promise<Uint8Array>;
  /**
   * The file in chunks, with the same checks and cap as `read` (a folder or a missing file fails
   * here, before any byte). Optional: a store without it is read whole.
   */
  readStream?(p: VirtualPath): Promise<FileStream>;
  /** A file or a folder (a root included). */
  stat(p: VirtualPath): Promise<FileStat>;
  /** The entries below a folder (a root included); `maxDepth` levels when recursive, one otherwise. */
  list(p: VirtualPath, o: ListOptions): Promise<ListEntry[]>;
  /** Replace or create a file; its missing folders are created. */
  writeAtomic(p: VirtualPath, data: Uint8Array): Promise<void>;
  /** Append one record to a file, created with its folders if missing. */
  appendRecord(p: VirtualPath, data: Uint8Array): Promise<void>;
  /** Remove one file, never a folder. */
  remove(p: VirtualPath): Promise<void>;
  /** Remove a folder; `recursive` (default true) its content too, else only an empty one. */
  removeDir(p: VirtualPath, o?: { recursive?: boolean }): Promise<void>;
  /** Move a file (files only); the destination's folders are created; never over a folder. */
  rename(from: VirtualPath, to: VirtualPath): Promise<void>;
}
