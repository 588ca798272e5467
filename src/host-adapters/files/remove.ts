/**
 * Removing a file or a folder (never a root: the caller refuses it). A folder's content goes
 * through the walker with a budget of directory entries; links inside are unlinked as links,
 * never followed. What is removed is given back to the quota.
 */

import type { Stats } from 'node:fs';
import * as fsp from 'node:fs/promises';
import { FileError, isDirectoryFailure, notRegularDenied, symlinkDenied, translateFsError } from './errors.js';
import { withPathLocks } from './locks.js';
import type { DirRef, OpenAt } from './openat.js';
import type { Quota } from './quota.js';
import type { VirtualPath } from './virtual-path.js';
import { scanBudget, walk } from './walk.js';

/** Remove one file (not a folder). `p` is canonical and not a root. */
export async function removeFile(at: OpenAt, quota: Quota, p: VirtualPath): Promise<void> {
  await removing(at, quota, p, 'remove', async (dir, name, st) => {
    if (st.isDirectory()) throw isDirectoryFailure(p.text);
    if (!st.isFile()) throw notRegularDenied(p.text);
    await fsp.unlink(dir.child(name));
    quota.releaseBytes(st.size);
    quota.releaseEntries(1);
  });
}

/** Remove a folder; `recursive`: its content too, at most scanBudget(maxEntries) entries read. `p` is canonical and not a root. */
export async function removeFolder(
  at: OpenAt,
  quota: Quota,
  p: VirtualPath,
  recursive: boolean,
  maxEntries: number,
): Promise<void> {
  await removing(at, quota, p, 'remove folder', async (dir, name, st) => {
    if (!st.isDirectory()) throw new FileError('E_FILE_FAILED', p.text, 'not a folder', { reason: 'not-a-directory' });
    if (recursive) {
      const sub = await at.descend(dir, name, p);
      try {
        await walk(
          at,
          sub,
          {
            async visit({ dir: d, name: n, st: s }) {
              if (s.isDirectory()) return true; // emptied first, removed in leave()
              // files, symlinks (the link itself, never its target), other node types
              await fsp.unlink(d.child(n));
              if (s.isFile()) quota.releaseBytes(s.size);
              quota.releaseEntries(1);
              return false;
            },
            async leave({ dir: d, name: n }) {
              await fsp.rmdir(d.child(n));
              quota.releaseEntries(1);
            },
          },
          {
            p,
            onChanged: 'fail',
            budget: {
              max: scanBudget(maxEntries),
              tooMany: () =>
                new FileError('E_SIZE_LIMIT', p.text, 'too many entries to remove', { reason: 'entry-limit' }),
            },
          },
        );
      } finally {
        await sub.close();
      }
    }
    await fsp.rmdir(dir.child(name));
    quota.releaseEntries(1);
  });
}

/** Under the path's lock: lstat the entry in its parent (a link is refused, never followed), then `remove` it. */
async function removing(
  at: OpenAt,
  quota: Quota,
  p: VirtualPath,
  what: string,
  remove: (dir: DirRef, name: string, st: Stats) => Promise<void>,
): Promise<void> {
  await quota.load();
  await withPathLocks(at.realRoot, [p], async () => {
    const { dir, name } = await at.parentOf(p);
    try {
      const st = await fsp.lstat(dir.child(name));
      if (st.isSymbolicLink()) throw symlinkDenied(p.text);
      await remove(dir, name, st);
    } catch (e) {
      throw translateFsError(e, p, what);
    } finally {
      await dir.close();
    }
  });
}
