/**
 * Writing a file, counted against the quota before anything is written (quota.ts).
 *
 *  - writeAtomic: temp file `.smartcage-tmp-<random>` in the target's folder (O_CREAT|O_EXCL|
 *    O_NOFOLLOW), write, fsync, rename over the target, fsync the folder: a reader sees the old
 *    content or the new, never part of it. Temp names start with a dot, which no virtual path can
 *    name, so listings never show them; sweepTempFiles removes those a crash left behind.
 *  - appendRecord: under the path's lock (locks.ts) around open(O_APPEND) + write of the whole
 *    record; on a write error the file is cut back to its previous size, so concurrent appends
 *    never interleave and a record is there whole or not at all. A file with several hard links
 *    is refused (another tenant's file could be one of them).
 */

import { constants as C } from 'node:fs';
import * as fsp from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import {
  errno,
  hardLinkDenied,
  isDirectoryFailure,
  notRegularDenied,
  symlinkDenied,
  translateFsError,
} from './errors.js';
import { withPathLocks } from './locks.js';
import type { OpenAt } from './openat.js';
import type { Quota } from './quota.js';
import { parseVirtualPath, type VirtualPath } from './virtual-path.js';
import { walk } from './walk.js';

export const TEMP_PREFIX = '.smartcage-tmp-';

export type WriteStep = 'temp-created' | 'temp-written' | 'temp-synced' | 'before-rename' | 'renamed';

/**
 * Test hook for atomicity tests: awaited between the steps of writeAtomic. If it throws, the
 * error propagates as is and NOTHING is cleaned up (a simulated crash).
 */
export type StepHook = (step: WriteStep, p: VirtualPath) => void | Promise<void>;

/** Replace (or create) a file atomically. `p` is canonical and not a root. */
export async function writeAtomic(
  at: OpenAt,
  quota: Quota,
  p: VirtualPath,
  data: Uint8Array,
  hook?: StepHook,
): Promise<void> {
  await quota.load();
  await quota.writing(() =>
    withPathLocks(at.realRoot, [p], async () => {
      const { dir, name } = await at.parentOf(p, quota);
      let reserved = 0;
      let newEntry = 0;
      let tmp: string | undefined;
      let fh: FileHandle | undefined;
      let crashed = false;
      const step = async (s: WriteStep): Promise<void> => {
        try {
          if (hook) await hook(s, p);
        } catch (e) {
          crashed = true;
          throw e;
        }
      };
      try {
        const old = await fsp
          .lstat(dir.child(name))
          .catch((e: unknown) => (errno(e) === 'ENOENT' ? undefined : Promise.reject(e)));
        if (old?.isSymbolicLink()) throw symlinkDenied(p.text);
        if (old && old.isDirectory()) throw isDirectoryFailure(p.text);
        if (old && !old.isFile()) throw notRegularDenied(p.text);
        const delta = data.length - (old ? old.size : 0);
        quota.reserveBytes(delta, p);
        reserved = delta;
        if (!old) {
          quota.reserveEntries(1, p);
          newEntry = 1;
        }
        tmp = TEMP_PREFIX + randomBytes(12).toString('hex');
        const o = await at.openFile(dir, tmp, C.O_WRONLY | C.O_CREAT | C.O_EXCL, p);
        fh = o.fh;
        await step('temp-created');
        await writeAll(fh, data);
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
          quota.forget(); // simulated crash: in-memory accounting is void, rescan later
          throw e;
        }
        await fh?.close().catch(() => undefined);
        if (tmp !== undefined) await fsp.unlink(dir.child(tmp)).catch(() => undefined);
        quota.releaseBytes(reserved);
        quota.releaseEntries(newEntry);
        throw translateFsError(e, p, 'write');
      } finally {
        if (crashed) await fh?.close().catch(() => undefined);
        await dir.close();
      }
    }),
  );
}

/** Append one whole record. `p` is canonical and not a root. */
export async function appendRecord(at: OpenAt, quota: Quota, p: VirtualPath, data: Uint8Array): Promise<void> {
  await quota.load();
  await quota.writing(() =>
    withPathLocks(at.realRoot, [p], async () => {
      const { dir, name } = await at.parentOf(p, quota);
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
          quota.reserveEntries(1, p);
          newEntry = 1;
        }
        const o = await at.openFile(dir, name, C.O_WRONLY | C.O_APPEND | C.O_CREAT, p);
        fh = o.fh;
        if (o.st.nlink > 1) throw hardLinkDenied(p.text);
        quota.reserveBytes(data.length, p);
        reserved = data.length;
        before = o.st.size;
        await writeAll(fh, data);
        await fh.datasync();
      } catch (e) {
        if (fh && before >= 0) await fh.truncate(before).catch(() => undefined);
        quota.releaseBytes(reserved);
        // A file this call created stays (empty) when the write failed after the open.
        if (!fh) quota.releaseEntries(newEntry);
        throw translateFsError(e, p, 'append');
      } finally {
        await fh?.close().catch(() => undefined);
        await dir.close();
      }
    }),
  );
}

/** Remove leftover temp files older than `olderThanMs` (after a crash) anywhere below the root. Returns the count. */
export async function sweepTempFiles(at: OpenAt, quota: Quota, olderThanMs: number): Promise<number> {
  const root = await at.openRoot();
  const limit = Date.now() - olderThanMs;
  let n = 0;
  try {
    await walk(
      at,
      root,
      {
        async visit({ dir, name, st }) {
          if (st.isFile() && name.startsWith(TEMP_PREFIX) && st.mtimeMs <= limit) {
            await fsp.unlink(dir.child(name)).catch(() => undefined);
            n++;
          }
          return st.isDirectory();
        },
      },
      { p: parseVirtualPath('/files/user'), onChanged: 'skip' },
    );
  } finally {
    await root.close();
  }
  quota.forget();
  return n;
}

async function writeAll(fh: FileHandle, data: Uint8Array): Promise<void> {
  let off = 0;
  while (off < data.length) {
    const { bytesWritten } = await fh.write(data, off, data.length - off, null);
    off += bytesWritten;
  }
}
