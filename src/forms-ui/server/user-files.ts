/**
 * `/files/user/` of `smartcage serve` (the default path picker's list and the preview link),
 * read through the hardened store of the host bridge, TenantFiles: virtual paths only (no `..`,
 * no dot files, no escapes), every step opened without following a symlink, nothing outside the
 * storage folder. The server only reads: the store gets no byte of quota. Without a storage
 * folder (or without its `user/`), /files/user/ is an empty folder: `serve` starts anywhere.
 */
import { FileError } from '../../host-adapters/files/errors.js';
import type { FileStore } from '../../host-adapters/files/file-store.js';
import { TenantFiles } from '../../host-adapters/files/tenant-files.js';
import { parseVirtualPath, type VirtualPath } from '../../host-adapters/files/virtual-path.js';

export const FILES_ROOT = '/files/user';

/** A preview is a whole file in memory: images and PDFs, not archives. */
const MAX_READ_BYTES = 64 * 1024 * 1024;
/** Entries of one folder listing (TenantFiles also stops after reading 4x as many). */
const MAX_LIST_ENTRIES = 10_000;

export interface Reply {
  status: number;
  body: unknown;
}

/** A file and its name (the last segment, for the content type), or why there is none. */
export type FileReply = { ok: true; data: Uint8Array; name: string } | { ok: false; status: number; text: string };

export class UserFiles {
  private readonly store: FileStore | undefined;

  /**
   * `storageDir` holds the site's roots as folders (TenantFiles layout): `user/` is /files/user/.
   * Undefined: no files at all.
   */
  constructor(storageDir: string | undefined) {
    this.store =
      storageDir === undefined
        ? undefined
        : new TenantFiles({
            rootDir: storageDir,
            quotaBytes: 0,
            maxReadBytes: MAX_READ_BYTES,
            maxEntries: MAX_LIST_ENTRIES,
          });
  }

  /** `GET /api/files?path=...`: the folders and files of one folder, folders first. */
  async list(virtual: string): Promise<Reply> {
    const vp = userPath(virtual);
    if (!vp) return { status: 400, body: { error: `path not allowed: only ${FILES_ROOT}/ and below` } };
    // /files/user/ itself always exists: an empty folder when the storage has none
    const empty: Reply = { status: 200, body: { path: vp.text + '/', entries: [] } };
    const missing: Reply = vp.segments.length === 0 ? empty : { status: 404, body: { error: 'no such folder' } };
    if (!this.store) return missing;
    let entries;
    try {
      entries = await this.store.list(vp, { recursive: false, maxDepth: 1 });
    } catch (e) {
      const f = failure(e);
      return f.status === 404 ? missing : { status: f.status, body: { error: f.text } };
    }
    const out = entries.map((e) => ({
      name: e.path.slice(e.path.lastIndexOf('/') + 1),
      path: e.path + (e.isDir ? '/' : ''),
      type: e.isDir ? 'dir' : 'file',
    }));
    out.sort((a, b) => (a.type === b.type ? a.name.localeCompare(b.name) : a.type === 'dir' ? -1 : 1));
    return { status: 200, body: { path: vp.text + '/', entries: out } };
  }

  /** `GET /files/user/...`: the file itself (a folder is not found). */
  async read(virtual: string): Promise<FileReply> {
    const vp = userPath(virtual);
    if (!vp) return { ok: false, status: 400, text: 'path not allowed' };
    if (!this.store) return { ok: false, status: 404, text: 'no such file' };
    try {
      if ((await this.store.stat(vp)).isDir) return { ok: false, status: 404, text: 'no such file' };
      return { ok: true, data: await this.store.read(vp), name: vp.segments[vp.segments.length - 1]! };
    } catch (e) {
      const f = failure(e);
      return { ok: false, status: f.status, text: f.status === 404 ? 'no such file' : f.text };
    }
  }
}

/** The canonical virtual path when it is /files/user or below, else undefined. */
function userPath(virtual: string): VirtualPath | undefined {
  try {
    const vp = parseVirtualPath(virtual);
    return vp.root === FILES_ROOT ? vp : undefined;
  } catch {
    return undefined;
  }
}

/** The status of a store error; the texts name no real path (FileError never does). */
function failure(e: unknown): { status: number; text: string } {
  if (!(e instanceof FileError)) throw e;
  switch (e.code) {
    case 'E_FILE_NOT_FOUND':
      return { status: 404, text: 'not found' };
    case 'E_PATH_DENIED':
      return { status: 400, text: 'path not allowed' };
    case 'E_SIZE_LIMIT':
      return { status: 413, text: 'too large' };
    default:
      throw e;
  }
}
