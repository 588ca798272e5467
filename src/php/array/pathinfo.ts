/** pathinfo() of PHP 8.2 (byte-based, "/" as the only separator). */
import { PhpArray, type Value } from '../../value/value.js';

const PATHINFO_DIRNAME = 1;
const PATHINFO_BASENAME = 2;
const PATHINFO_EXTENSION = 4;
const PATHINFO_FILENAME = 8;
export const PATHINFO_ALL = 15;

/** PHP basename() without suffix. */
function basename(path: string): string {
  let end = path.length - 1;
  while (end >= 0 && path[end] === '/') end--;
  if (end < 0) return '';
  let start = end;
  while (start > 0 && path[start - 1] !== '/') start--;
  return path.slice(start, end + 1);
}

/** PHP dirname() (one level). */
function dirname(path: string): string {
  if (path === '') return '';
  let end = path.length - 1;
  while (end >= 0 && path[end] === '/') end--;
  if (end < 0) return '/';
  while (end >= 0 && path[end] !== '/') end--;
  if (end < 0) return '.';
  while (end >= 0 && path[end] === '/') end--;
  if (end < 0) return '/';
  return path.slice(0, end + 1);
}

/** pathinfo($path, $flags): the whole array for PATHINFO_ALL, else the first part asked for ("" if absent). */
export function pathinfo(path: string, flags = PATHINFO_ALL): Value {
  const out = PhpArray.empty();
  if (flags & PATHINFO_DIRNAME) {
    const d = dirname(path);
    if (d !== '') out.set('dirname', d);
  }
  const base = basename(path);
  if (flags & PATHINFO_BASENAME) out.set('basename', base);
  const dot = base.lastIndexOf('.');
  if (flags & PATHINFO_EXTENSION && dot >= 0) out.set('extension', base.slice(dot + 1));
  if (flags & PATHINFO_FILENAME) out.set('filename', dot >= 0 ? base.slice(0, dot) : base);
  if (flags === PATHINFO_ALL) return out;
  const first = out.values()[0];
  return first === undefined ? '' : first;
}
