/** stat of a file or folder, a root included: the link itself is refused, never followed. */

import * as fsp from 'node:fs/promises';
import { notRegularDenied, symlinkDenied, translateFsError } from './errors.js';
import type { FileStat } from './file-store.js';
import { realSegments, type OpenAt } from './openat.js';
import type { VirtualPath } from './virtual-path.js';

/** The FileStat of an fs stat: times in whole milliseconds, size 0 for a folder. */
export function statOf(st: { size: number; ctimeMs: number; mtimeMs: number; isDirectory(): boolean }): FileStat {
  const isDir = st.isDirectory();
  return { size: isDir ? 0 : st.size, ctime: Math.floor(st.ctimeMs), mtime: Math.floor(st.mtimeMs), isDir };
}

/** `p` is canonical. */
export async function statPath(at: OpenAt, p: VirtualPath): Promise<FileStat> {
  if (p.segments.length === 0) {
    const dir = await at.openDir(realSegments(p), p);
    try {
      return statOf(await fsp.stat(dir.self));
    } catch (e) {
      throw translateFsError(e, p, 'stat');
    } finally {
      await dir.close();
    }
  }
  const { dir, name } = await at.parentOf(p);
  try {
    const st = await fsp.lstat(dir.child(name));
    if (st.isSymbolicLink()) throw symlinkDenied(p.text);
    if (!st.isFile() && !st.isDirectory()) throw notRegularDenied(p.text);
    return statOf(st);
  } catch (e) {
    throw translateFsError(e, p, 'stat');
  } finally {
    await dir.close();
  }
}
