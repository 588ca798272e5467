/**
 * Moving a file (rename_file "moves a file"): files only; the destination's folders are created;
 * never over a folder or a link. Both paths are locked. A replaced destination is given back to
 * the quota.
 */

import * as fsp from 'node:fs/promises';
import { FileError, errno, symlinkDenied, translateFsError } from './errors.js';
import { withPathLocks } from './locks.js';
import type { DirRef, OpenAt } from './openat.js';
import type { Quota } from './quota.js';
import type { VirtualPath } from './virtual-path.js';

/** `from` and `to` are canonical, different, and not roots. */
export async function renameFile(at: OpenAt, quota: Quota, from: VirtualPath, to: VirtualPath): Promise<void> {
  await quota.load();
  await withPathLocks(at.realRoot, [from, to], async () => {
    const src = await at.parentOf(from);
    let dst: { dir: DirRef; name: string } | undefined;
    try {
      const st = await fsp
        .lstat(src.dir.child(src.name))
        .catch((e: unknown) => Promise.reject(translateFsError(e, from, 'rename')));
      if (st.isSymbolicLink()) throw symlinkDenied(from.text);
      if (!st.isFile())
        throw new FileError('E_FILE_FAILED', from.text, 'only files can be moved', { reason: 'not-a-file' });
      dst = await at.parentOf(to, quota);
      const old = await fsp
        .lstat(dst.dir.child(dst.name))
        .catch((e: unknown) => (errno(e) === 'ENOENT' ? undefined : Promise.reject(translateFsError(e, to, 'rename'))));
      if (old?.isSymbolicLink()) throw symlinkDenied(to.text);
      if (old && !old.isFile())
        throw new FileError('E_FILE_FAILED', to.text, 'the destination is not a file', { reason: 'is-directory' });
      // lstat mode: path-based rename is racy; at least both folders must still be what they were.
      if (at.mode === 'lstat' && !((await at.rewalkOk(src.dir.rel)) && (await at.rewalkOk(dst.dir.rel)))) {
        throw new FileError('E_PATH_DENIED', from.text, 'the path changed during the move', { reason: 'escaped-root' });
      }
      await fsp
        .rename(src.dir.child(src.name), dst.dir.child(dst.name))
        .catch((e: unknown) => Promise.reject(translateFsError(e, from, 'rename')));
      if (old) {
        quota.releaseBytes(old.size);
        quota.releaseEntries(1);
      }
      await dst.dir.sync().catch(() => undefined);
      await src.dir.sync().catch(() => undefined);
    } finally {
      await src.dir.close();
      await dst?.dir.close();
    }
  });
}
