/**
 * {write_file path=... var=p value=... is_append=0|1}: writes `value` to a file; `var` receives the
 * virtual path written.
 *
 * Decisions:
 *  - path omitted: a new unique file under /files/temp (`/files/temp/<uuid>`); is_append=1 then is
 *    E_BAD_COMBINATION (spec: append mode requires path).
 *  - path given: /files/temp, /files/user or /files/ltd (plugin-roots.ts); folders are created.
 *  - value: a string is written as its bytes; an array is written as ONE CSV line, as fputcsv
 *    writes it (csv.ts), "\n" included; anything else with PHP's string conversion (null: "").
 *    A line break is never added to a string: the template writes "\n" itself.
 *  - is_append=0 (default): the file is replaced atomically (temp file, fsync, rename), so a reader
 *    sees the old or the new content, never a torn file. is_append=1: the value is appended as one
 *    whole record under a per-file lock, cut back on failure.
 *  - var receives the canonical virtual path (`/files/temp/...`), the form put_file's tmp_path and
 *    read_file's path take.
 *  - Storage quota: E_QUOTA before anything is written; the size limit of one write is the
 *    bridge's 1 MiB attribute cap.
 */
import { implement } from '../plugin-contract.js';
import { BridgeError } from '../../host-api/errors.js';
import { wireBytes } from '../wire-bytes.js';
import { toStr } from '../../value/convert.js';
import { PhpArray, type Value } from '../../value/value.js';
import { generatedPath, given, pathAttr, tenantFiles } from './common.js';
import { formatCsvLine } from './csv.js';
import declaration from '../../plugins/host-files/write_file.js';

export function contentOf(v: Value | undefined): Uint8Array {
  if (v instanceof PhpArray) return wireBytes(formatCsvLine(v));
  return wireBytes(v === undefined ? '' : toStr(v));
}

export const writeFile = implement(declaration, async (attrs, call) => {
  const append = attrs.is_append === 1;
  if (append && !given(attrs.path))
    throw new BridgeError('E_BAD_COMBINATION', '{write_file} is_append=1 requires path');
  const p = given(attrs.path) ? pathAttr('write_file', 'path', attrs) : generatedPath();
  const files = tenantFiles(call, 'write_file');
  const data = contentOf(attrs.value);
  if (append) await files.appendRecord(p, data);
  else await files.writeAtomic(p, data);
  return { assign: [[String(attrs.var), p.text]] };
});
