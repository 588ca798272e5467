/** Whether a file or folder is there, on any store: only E_FILE_NOT_FOUND means no; a refusal (a link on the path, a denied path) stays an error. */
import { FileError } from './errors.js';
import type { FileStore } from './file-store.js';
import type { VirtualPath } from './virtual-path.js';

export async function fileExists(store: Pick<FileStore, 'stat'>, p: VirtualPath): Promise<boolean> {
  try {
    await store.stat(p);
    return true;
  } catch (e) {
    if (e instanceof FileError && e.code === 'E_FILE_NOT_FOUND') return false;
    throw e;
  }
}
