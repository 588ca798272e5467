/**
 * Object keys of one tenant: `<prefix>files/g/a/b.txt` for `/files/g/a/b.txt` (the canonical
 * virtual path without its leading slash), and `<key>/` for a folder's marker object, which keeps
 * an empty folder in existence as a folder does on disk.
 *
 * The prefix is the tenant's: empty (the bucket is the tenant's) or slash-separated segments of
 * `[A-Za-z0-9._-]` (never `.` or `..`) ending with `/`, so one tenant's prefix is never the start
 * of another's (`t1/` and `t10/`). Keys read back from a listing are kept only when they are
 * exactly the key of a canonical virtual path: a key written around the store (`a/../b`,
 * `%2e%2e`, a non-NFC name, a dotfile) is invisible, as a name no virtual path can name is in a
 * local folder.
 */
import { parseVirtualPath, type VirtualPath } from '../virtual-path.js';

const PREFIX_SEGMENT = /^[A-Za-z0-9._-]{1,100}$/;

/** The canonical form of a tenant prefix (`a/b` -> `a/b/`); TypeError when it is not one. */
export function tenantPrefix(prefix: string | undefined): string {
  const p = (prefix ?? '').replace(/\/+$/, '');
  if (p === '') return '';
  const segs = p.split('/');
  if (segs.length > 8 || segs.some((s) => !PREFIX_SEGMENT.test(s) || s === '.' || s === '..')) {
    throw new TypeError('S3Files: prefix must be segments of letters, digits, . _ - (never . or ..)');
  }
  return `${p}/`;
}

export function objectKey(prefix: string, p: VirtualPath): string {
  return prefix + p.text.slice(1);
}

/** Keys of the folders above `p`, below its root (for `/files/g/a/b/c.txt`: `.../g/a`, `.../g/a/b`). */
export function ancestorKeys(prefix: string, p: VirtualPath): string[] {
  const out: string[] = [];
  for (let i = 1; i < p.segments.length; i++)
    out.push(prefix + `${p.root}/${p.segments.slice(0, i).join('/')}`.slice(1));
  return out;
}

/** The virtual path a key below `prefix` stands for, with whether it is a folder marker; null when no canonical path does. */
export function pathOfKey(prefix: string, key: string): { path: VirtualPath; marker: boolean } | null {
  if (!key.startsWith(prefix)) return null;
  let rest = key.slice(prefix.length);
  const marker = rest.endsWith('/');
  if (marker) rest = rest.slice(0, -1);
  try {
    const path = parseVirtualPath('/' + rest);
    return path.text === '/' + rest && !path.trailingSlash ? { path, marker } : null;
  } catch {
    return null;
  }
}
