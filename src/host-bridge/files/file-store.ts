/** What a tenant's storage answers about its files and folders (stat, list). */

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
