/**
 * `/files/user/` of `smartcage serve` (the default path picker's list and the preview link),
 * read through a FileStore: the site's own store (its files/ folder through TenantFiles, or its
 * bucket through S3Files), or for the bare forms server TenantFiles over a storage folder. Virtual
 * paths only (no `..`, no dot files, no escapes), and only below /files/user; the store keeps
 * its confinement (no link followed, nothing outside the folder or the prefix). The server only
 * reads. A file is streamed in chunks where the store can (bounded memory), else read whole.
 * Without a store (or without its `user/`), /files/user/ is an empty folder: `serve` starts anywhere.
 */
import { FileError } from '../../host-adapters/files/errors.js';
import type { FileStore, FileStream } from '../../host-adapters/files/file-store.js';
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

/** A file opened for sending and its name (the last segment, for the content type), or why there is none. */
export type FileReply = { ok: true; file: FileStream; name: string } | { ok: false; status: number; text: string };

export class UserFiles {
  /** A store of the caller's (a site's); undefined: no files at all. */
  constructor(private readonly store: FileStore | undefined) {}

  /**
   * Over a storage folder holding the roots as folders (TenantFiles layout: `user/` is
   * /files/user/), with no byte of quota: the forms server only reads.
   */
  static inFolder(storageDir: string | undefined): UserFiles {
    return new UserFiles(
      storageDir === undefined
        ? undefined
        : new TenantFiles({
            rootDir: storageDir,
            quotaBytes: 0,
            maxReadBytes: MAX_READ_BYTES,
            maxEntries: MAX_LIST_ENTRIES,
          }),
    );
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

  /** `GET /files/user/...`: the file itself, opened (a folder is not found); the caller reads or closes it. */
  async read(virtual: string): Promise<FileReply> {
    const vp = userPath(virtual);
    if (!vp) return { ok: false, status: 400, text: 'path not allowed' };
    const store = this.store;
    if (!store) return { ok: false, status: 404, text: 'no such file' };
    try {
      if ((await store.stat(vp)).isDir) return { ok: false, status: 404, text: 'no such file' };
      const file = store.readStream ? await store.readStream(vp) : whole(await store.read(vp));
      return { ok: true, file, name: vp.segments[vp.segments.length - 1]! };
    } catch (e) {
      const f = failure(e);
      return { ok: false, status: f.status, text: f.status === 404 ? 'no such file' : f.text };
    }
  }
}

/** A file read whole, as a stream of one chunk (a store without readStream). */
function whole(data: Uint8Array): FileStream {
  return {
    size: data.length,
    chunks: (async function* () {
      yield data;
    })(),
    close: async () => {},
  };
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
