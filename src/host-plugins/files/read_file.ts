/**
 * {read_file path=... row=r type=txt|csv|jsonl}...{/read_file}: the body runs once per line (txt),
 * per CSV record (csv, parsed as PHP's fgetcsv: see csv.ts) or per JSON line (jsonl).
 *
 * Decisions:
 *  - path: a virtual path with its leading slash (/files/user/a.csv), under the roots of
 *    plugin-roots.ts (user, ltd, temp, topics, member/ext).
 *  - row: the variable each item goes to; default `row`.
 *  - The file is read whole (at most TenantFiles' maxReadBytes, E_SIZE_LIMIT past it), split on LF,
 *    a CR before the LF dropped; a final line break does not make an empty last line. Bytes are
 *    kept exactly (invalid UTF-8 survives as in PHP). At most MAX_LINES lines (E_SIZE_LIMIT).
 *  - A file containing a NUL byte is refused as binary (E_FILE_FAILED).
 *  - txt: each line as a string without its line break. csv: each record as a list of strings
 *    (a blank line is [null], as fgetcsv gives). jsonl: each non-blank line decoded with
 *    json_decode(assoc=true); an invalid line gives null and a warning; blank lines are skipped.
 *  - ignore_permission=true: allowed only in batch and admin-test renders (docs/security.md BR-05),
 *    E_PERMISSION_DENIED in web renders. This host has no publication or permission model for
 *    /files/topics and /files/member/ext, so the flag changes nothing else.
 */
import { implement } from '../plugin-contract.js';
import { BridgeError } from '../../host-api/errors.js';
import { FileError } from '../../host-adapters/files/errors.js';
import { fromBytes } from '../../value/bytes.js';
import { jsonDecode } from '../../php/json/decode.js';
import { PhpArray, type Value } from '../../value/value.js';
import { pathAttr, tenantFiles } from './common.js';
import { parseCsvLines } from './csv.js';
import declaration from '../../plugins/host-files/read_file.js';

const MAX_LINES = 100_000;

function splitLines(data: Uint8Array, path: string): string[] {
  if (data.includes(0))
    throw new FileError('E_FILE_FAILED', path, 'binary file (NUL byte): read_file reads text only', {
      plugin: 'read_file',
      attr: 'path',
      reason: 'binary',
    });
  const lines: string[] = [];
  let start = 0;
  while (start < data.length) {
    let nl = data.indexOf(0x0a, start);
    if (nl < 0) nl = data.length;
    const end = nl > start && data[nl - 1] === 0x0d ? nl - 1 : nl;
    if (lines.length >= MAX_LINES)
      throw new FileError('E_SIZE_LIMIT', path, `more than ${MAX_LINES} lines`, {
        plugin: 'read_file',
        attr: 'path',
        reason: 'line-limit',
      });
    lines.push(fromBytes(data.subarray(start, end)));
    start = nl + 1;
  }
  return lines;
}

export const readFile = implement(declaration, async (attrs, call) => {
  const p = pathAttr('read_file', 'path', attrs);
  if (attrs.ignore_permission === true && call.identity.context === 'web') {
    throw new BridgeError(
      'E_PERMISSION_DENIED',
      '{read_file} ignore_permission=true is allowed only in batch processing and the admin test screen',
    );
  }
  const type = attrs.type === undefined || attrs.type === null ? 'txt' : String(attrs.type);
  const rowVar = attrs.row === undefined || attrs.row === null || attrs.row === '' ? 'row' : String(attrs.row);
  const data = await tenantFiles(call, 'read_file').read(p);
  const lines = splitLines(data, p.text);
  let items: Value[];
  const log: { level: 'warning'; message: string }[] = [];
  if (type === 'csv') {
    items = parseCsvLines(lines).map((r) => PhpArray.fromList(r));
  } else if (type === 'jsonl') {
    items = [];
    lines.forEach((line, i) => {
      if (line.trim() === '') return;
      const v = jsonDecode(line, true);
      if (v === null && line.trim() !== 'null' && log.length < 10)
        log.push({ level: 'warning', message: `{read_file} ${p.text} line ${i + 1}: invalid JSON` });
      items.push(v);
    });
  } else {
    items = lines;
  }
  return { iterate: { var: rowVar, items }, log };
});
