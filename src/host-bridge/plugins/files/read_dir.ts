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
 *  - Caps: TenantFiles' maxEntries entries (E_SIZE_LIMIT past it, counted before `type` and
 *    `pattern` filter) and 4x that many scanned names.
 *  - pattern: a PHP regex matched against the entry's path, run without backtracking on the host;
 *    see pattern.ts (E_REGEX_UNSUPPORTED for what cannot run in linear time, E_REGEX_BUDGET).
 */
import type { HostPlugin } from '../../bridge.js';
import { PhpArray, type Value } from '../../../runtime/value.js';
import { given, pathAttr, tenantFiles } from './common.js';
import { compilePathFilter, filterPaths } from './pattern.js';

export const MAX_DEPTH = 32;

export const readDir: HostPlugin = {
  name: 'read_dir',
  async run(attrs, call) {
    const p = pathAttr('read_dir', 'path', attrs);
    const fileVar = given(attrs.file_var) ? String(attrs.file_var) : 'file';
    const filter = given(attrs.pattern) ? compilePathFilter(String(attrs.pattern)) : null;
    const list = await tenantFiles(call, 'read_dir').list(p, { recursive: attrs.recursive === true, maxDepth: MAX_DEPTH });
    let entries = list;
    if (attrs.type === 'file') entries = entries.filter((e) => !e.isDir);
    else if (attrs.type === 'dir') entries = entries.filter((e) => e.isDir);
    const log: { level: 'warning'; message: string }[] = [];
    if (filter) {
      if (filter.kind === 'none-match') log.push({ level: 'warning', message: filter.warning });
      entries = await filterPaths(filter, entries, (e) => e.path);
    }
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
    return { iterate: { var: fileVar, items }, log };
  },
};
