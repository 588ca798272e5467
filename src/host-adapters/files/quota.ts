/**
 * The storage quota of one tenant: bytes of regular files (quotaBytes) and entries, files and
 * folders of every kind (maxStorageEntries).
 *
 * Both are counted BEFORE the write that would pass them (E_QUOTA, nothing written): a replacement
 * counts `new size - size of the file it replaces`, an append the record, a new file or folder one
 * entry. Empty files and folders cost no bytes, so without the entry count a loop of writes of
 * empty files into new folders could fill the file system (finding HH-12).
 *
 * Usage is scanned once (TenantFiles: everything below the real root, temp files included, symlinks
 * counted as entries but not followed, `scanFolderUsage`; S3Files: every key below the tenant's
 * prefix) and then kept up to date by this instance's own writes and removals; another process
 * writing the same storage is not seen until a rescan.
 */

import { FileError, translateFsError } from './errors.js';
import type { EntryCount, OpenAt } from './openat.js';
import { parseVirtualPath, type VirtualPath } from './virtual-path.js';
import { walk } from './walk.js';

export interface Usage {
  bytes: number;
  entries: number;
}

export interface QuotaLimits {
  quotaBytes: number;
  maxStorageEntries: number;
}

export class Quota implements EntryCount {
  /** Bytes in use; undefined until scanned, and again when the count can no longer be trusted. */
  private used: number | undefined;
  /** Files and folders in use (known once `used` is). */
  private usedEntries = 0;
  private scanning: Promise<Usage> | undefined;
  /** Writes under way: a rescan while one runs would count its reservation twice or not at all. */
  private inflight = 0;

  constructor(
    private readonly scan: () => Promise<Usage>,
    private readonly limits: QuotaLimits,
  ) {}

  /** Scan the usage if it is not known; every operation that reserves or releases calls this first. */
  async load(): Promise<void> {
    if (this.used !== undefined) return;
    this.scanning ??= this.scan().finally(() => (this.scanning = undefined));
    const u = await this.scanning;
    if (this.used === undefined) {
      this.used = u.bytes;
      this.usedEntries = u.entries;
    }
  }

  /** The next load() rescans (a simulated crash, a sweep of temp files). */
  forget(): void {
    this.used = undefined;
  }

  /** Run a write that reserves as it goes; a rescan meanwhile does not overwrite the counts. */
  async writing<T>(fn: () => Promise<T>): Promise<T> {
    this.inflight++;
    try {
      return await fn();
    } finally {
      this.inflight--;
    }
  }

  /** Counts `delta` more bytes: E_QUOTA when a growth passes quotaBytes. */
  reserveBytes(delta: number, p: VirtualPath): void {
    const used = this.used ?? 0;
    if (delta > 0 && used + delta > this.limits.quotaBytes) {
      throw new FileError('E_QUOTA', p.text, `storage quota of ${this.limits.quotaBytes} bytes exceeded`, {
        reason: 'quota',
      });
    }
    this.used = used + delta;
  }

  releaseBytes(delta: number): void {
    if (this.used !== undefined) this.used -= delta;
  }

  /** Counts `n` new files or folders, before they are made: E_QUOTA past maxStorageEntries. */
  reserveEntries(n: number, p: VirtualPath): void {
    if (this.usedEntries + n > this.limits.maxStorageEntries) {
      throw new FileError(
        'E_QUOTA',
        p.text,
        `the storage holds at most ${this.limits.maxStorageEntries} files and folders`,
        { reason: 'quota' },
      );
    }
    this.usedEntries += n;
  }

  releaseEntries(n: number): void {
    this.usedEntries = Math.max(0, this.usedEntries - n);
  }

  /** Scan again; the counts take the result unless a write is under way. */
  async rescan(): Promise<Usage> {
    const u = await this.scan();
    if (this.inflight === 0) {
      this.used = u.bytes;
      this.usedEntries = u.entries;
    }
    return u;
  }
}

/** The usage of a local folder store, every kind of entry counted. */
export async function scanFolderUsage(at: OpenAt): Promise<Usage> {
  const root = await at.openRoot();
  let bytes = 0;
  const read = { count: 0 };
  try {
    await walk(
      at,
      root,
      {
        visit({ st }) {
          if (st.isFile()) bytes += st.size;
          return st.isDirectory();
        },
      },
      { p: parseVirtualPath('/files/user'), onChanged: 'skip', counted: read },
    );
  } catch (e) {
    throw translateFsError(e, '/files', 'usage scan');
  } finally {
    await root.close();
  }
  return { bytes, entries: read.count };
}
