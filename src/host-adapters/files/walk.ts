/**
 * The one recursive walk over a tenant's folders. The usage scan, the temp-file sweep, listings
 * and recursive removal all go through it, so all four step into folders the same link-safe way
 * (OpenAt.descend: never a link, never out of the root) and a budget, where there is one, counts
 * every directory entry read.
 *
 * Each folder is read whole first (so its handle is closed before the walk goes deeper), its names
 * are sorted by their UTF-8 bytes (PHP's scandir order: strcmp), and each name is lstat'ed (never followed) and shown to the
 * visitor, which says whether to walk into it; a folder's content comes right after the folder
 * (pre-order), and `leave` runs after it (post-order).
 */

import type { Stats } from 'node:fs';
import * as fsp from 'node:fs/promises';
import { FileError } from './errors.js';
import type { DirRef, OpenAt } from './openat.js';
import type { VirtualPath } from './virtual-path.js';
import { compareCodePoints } from '../../text/code-point-order.js';

interface WalkEntry {
  /** The folder holding the entry; fs calls name the entry as `dir.child(name)`. */
  readonly dir: DirRef;
  readonly name: string;
  /** lstat of the entry: a symbolic link is seen as the link, never as its target. */
  readonly st: Stats;
  /** Names from the start folder down to this entry; its length is the entry's depth (1 in the start folder). */
  readonly path: readonly string[];
}

export interface Visitor {
  /** Resolves true to walk into the entry; only a directory is ever walked into. */
  visit(e: WalkEntry): boolean | Promise<boolean>;
  /** After the content of a directory the walk went into (its handle already closed). */
  leave?(e: WalkEntry): Promise<void>;
}

/**
 * What the walk does with an entry that cannot be lstat'ed (gone) or walked into (gone, swapped
 * for a link or a file, unreadable) while it runs:
 *  - 'skip': skips it, whatever the failure (accounting: the usage scan, the temp sweep);
 *  - 'skip-gone': skips an entry that is gone or became a link or a file (a failed lstat counts as
 *    gone); any other failure to walk into a folder ends the walk (listings);
 *  - 'fail': ends the walk (removal: a folder goes whole or the error says why).
 */
type OnChanged = 'skip' | 'skip-gone' | 'fail';

export interface WalkOptions {
  /** The operation's virtual path, the only path errors name. */
  p: VirtualPath;
  onChanged: OnChanged;
  /** Names worth an lstat and a visit; the others are still read and counted. Default: all. */
  keep?: (name: string) => boolean;
  /** At most `max` directory entries read by the whole walk; reading one more throws `tooMany()`. */
  budget?: { max: number; tooMany: () => FileError };
  /** Receives the number of directory entries read so far, also when the walk fails. */
  counted?: { count: number };
}

/** Directory entries one listing or removal may read by default: hidden and skipped names cost host work too. */
export function scanBudget(maxEntries: number): number {
  return maxEntries * 4 + 64;
}

/** Walk the content of `start` (which the caller opened and closes). Errors are thrown as they come; callers translate them. */
export async function walk(at: OpenAt, start: DirRef, visitor: Visitor, o: WalkOptions): Promise<void> {
  let read = 0;
  if (o.counted) o.counted.count = 0;
  const skips = (e: unknown): boolean =>
    o.onChanged === 'skip' ||
    (o.onChanged === 'skip-gone' &&
      e instanceof FileError &&
      (e.code === 'E_PATH_DENIED' || e.code === 'E_FILE_NOT_FOUND'));
  const walkDir = async (d: DirRef, prefix: readonly string[]): Promise<void> => {
    const names: string[] = [];
    // for-await closes the directory handle on completion and when the loop throws
    for await (const ent of await fsp.opendir(d.self)) {
      read++;
      if (o.counted) o.counted.count = read;
      if (o.budget && read > o.budget.max) throw o.budget.tooMany();
      if (!o.keep || o.keep(ent.name)) names.push(ent.name);
    }
    // Byte order, not UTF-16 order: the two differ where an astral name meets one in U+E000..U+FFFF.
    names.sort(compareCodePoints);
    for (const name of names) {
      let st: Stats;
      try {
        st = await fsp.lstat(d.child(name));
      } catch (e) {
        if (o.onChanged === 'fail') throw e;
        continue;
      }
      const entry: WalkEntry = { dir: d, name, st, path: [...prefix, name] };
      if (!(await visitor.visit(entry)) || !st.isDirectory()) continue;
      let sub: DirRef;
      try {
        sub = await at.descend(d, name, o.p);
      } catch (e) {
        if (skips(e)) continue;
        throw e;
      }
      try {
        await walkDir(sub, entry.path);
      } finally {
        await sub.close();
      }
      await visitor.leave?.(entry);
    }
  };
  await walkDir(start, []);
}
