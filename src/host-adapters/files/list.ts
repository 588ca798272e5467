/**
 * Listing a folder (read_dir): virtual paths, sorted by name per folder, pre-order. Symlinks,
 * temp files, dotfiles and names that no canonical virtual path can name (not NFC, invalid UTF-8,
 * control characters...) are left out. E_SIZE_LIMIT past maxEntries results, or past the
 * directory entries the listing may read (hidden and skipped ones included).
 */

import { FileError, translateFsError } from './errors.js';
import type { ListEntry, ListOptions } from './file-store.js';
import { realSegments, type OpenAt } from './openat.js';
import { statOf } from './stat.js';
import { parseVirtualPath, segmentProblem, type VirtualPath } from './virtual-path.js';
import { scanBudget, walk } from './walk.js';
import { TEMP_PREFIX } from './write.js';

/** `p` is canonical. */
export async function listFolder(at: OpenAt, p: VirtualPath, o: ListOptions, maxEntries: number): Promise<ListEntry[]> {
  const out: ListEntry[] = [];
  const budget = Math.min(scanBudget(maxEntries), o.maxScanned ?? Infinity);
  if (o.scanned) o.scanned.count = 0;
  const maxDepth = o.recursive ? Math.max(1, Math.floor(o.maxDepth)) : 1;
  const dir = await at.openDir(realSegments(p), p);
  try {
    await walk(
      at,
      dir,
      {
        visit({ st, path }) {
          if (st.isSymbolicLink() || !(st.isFile() || st.isDirectory())) return false;
          if (out.length >= maxEntries)
            throw new FileError('E_SIZE_LIMIT', p.text, `more than ${maxEntries} entries`, { reason: 'entry-limit' });
          out.push({ path: `${p.text}/${path.join('/')}`, ...statOf(st) });
          return st.isDirectory() && path.length < maxDepth;
        },
      },
      {
        p,
        onChanged: 'skip-gone',
        keep: addressable,
        budget: {
          max: budget,
          tooMany: () =>
            new FileError('E_SIZE_LIMIT', p.text, `more than ${budget} directory entries scanned`, {
              reason: 'entry-limit',
            }),
        },
        counted: o.scanned,
      },
    );
    return out;
  } catch (e) {
    throw translateFsError(e, p, 'list');
  } finally {
    await dir.close();
  }
}

/** Can `name` (as read from disk) be named by a canonical virtual path segment? */
function addressable(name: string): boolean {
  if (name.startsWith(TEMP_PREFIX)) return false;
  if (name.includes('\uFFFD')) return false; // invalid UTF-8 on disk decodes to U+FFFD
  if (name.normalize('NFC') !== name) return false;
  if (segmentProblem(name) !== null) return false;
  try {
    parseVirtualPath(`/files/user/${name}`);
    return true;
  } catch {
    return false;
  }
}
