/**
 * {read_dir path=... file_var=f recursive=true type=file|dir name_only=true pattern="/re/"}...
 * {/read_dir}: the body runs once per entry.
 *
 * Decisions:
 *  - path: /files/user or /files/ltd, a root itself or a folder below (plugin-roots.ts).
 *  - file_var: the variable each entry goes to; default `file`.
 *  - An entry is {path, size, ctime, mtime, is_dir} as the spec's resource table defines it:
 *    path is the entry's virtual path (/files/user/a/b.csv: it can be passed straight to
 *    read_file or remove_file); size in bytes (0 for folders); ctime is the CONTENT modification
 *    time and mtime the ATTRIBUTE modification time (the spec's meanings: POSIX mtime and ctime
 *    respectively), both Unix seconds; is_dir a boolean. With name_only=true the item is the path.
 *  - Order: names sorted by byte value within each folder, a folder followed by its content
 *    (pre-order). Hidden files (a leading dot), symlinks, and names no virtual path can express are
 *    skipped, as TenantFiles.list does. recursive: at most MAX_DEPTH levels below path; symlinks are
 *    never followed, so a link loop cannot make the walk longer.
 *  - Caps: TenantFiles' maxEntries entries per listing (E_SIZE_LIMIT past it, counted before
 *    `type` and `pattern` filter) and 4x that many directory entries read; and per render, all
 *    listings together read at most MAX_SCANNED_PER_RENDER directory entries (counted in the
 *    render's bridge state; E_SIZE_LIMIT past it). Each read entry is an lstat on the host, so
 *    this bounds the host work a render can ask for whatever its host-call quota.
 *  - pattern: matched in the isolate, not here (the declaration's `items`, src/plugins/host-files/
 *    read_dir.ts): the host never runs a tenant's regular expression. `type` is a flag test and
 *    stays here, so that fewer items cross.
 */
import { implement } from '../plugin-contract.js';
import { PhpArray, type Value } from '../../value/value.js';
import { FileError } from '../../host-adapters/files/errors.js';
import type { ListEntry } from '../../host-adapters/files/file-store.js';
import { given, pathAttr, tenantFiles } from './common.js';
import declaration from '../../plugins/host-files/read_dir.js';

const MAX_DEPTH = 32;
/** Directory entries all the listings of one render may read. */
export const MAX_SCANNED_PER_RENDER = 10_000;
const SCANNED = 'read_dir.scanned';

export const readDir = implement(declaration, async (attrs, call) => {
  const p = pathAttr('read_dir', 'path', attrs);
  const fileVar = given(attrs.file_var) ? String(attrs.file_var) : 'file';
  const spent = call.counters.get(SCANNED) ?? 0;
  const left = MAX_SCANNED_PER_RENDER - spent;
  if (left <= 0) throw renderBudget(p.text);
  const files = tenantFiles(call, 'read_dir');
  const scanned = { count: 0 };
  let list: ListEntry[];
  try {
    list = await files.list(p, { recursive: attrs.recursive === true, maxDepth: MAX_DEPTH, maxScanned: left, scanned });
  } catch (e) {
    // The listing stopped at what this render had left, not at the folder's own cap.
    if (e instanceof FileError && e.code === 'E_SIZE_LIMIT' && scanned.count > left) throw renderBudget(p.text);
    throw e;
  } finally {
    call.counters.set(SCANNED, spent + scanned.count);
  }
  let entries = list;
  if (attrs.type === 'file') entries = entries.filter((e) => !e.isDir);
  else if (attrs.type === 'dir') entries = entries.filter((e) => e.isDir);
  const items: Value[] = entries.map((e) =>
    attrs.name_only === true
      ? e.path
      : PhpArray.fromEntries([
          ['path', e.path],
          ['size', e.size],
          ['ctime', Math.floor(e.mtime / 1000)],
          ['mtime', Math.floor(e.ctime / 1000)],
          ['is_dir', e.isDir],
        ]),
  );
  return { iterate: { var: fileVar, items } };
});

function renderBudget(path: string): FileError {
  return new FileError(
    'E_SIZE_LIMIT',
    path,
    `the listings of one render may read at most ${MAX_SCANNED_PER_RENDER} directory entries`,
    { reason: 'entry-limit' },
  );
}
