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
 *  - csv and jsonl: at most MAX_FILE_VALUES values a file and MAX_ITEM_VALUES a record or line
 *    (E_SIZE_LIMIT), counted as they are made (see below).
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
import { csvRecords, TooManyCsvValues } from './csv.js';
import { MAX_ITEM_VALUES, jsonValuesBound } from '../decoded-values.js';
import declaration from '../../plugins/host-files/read_file.js';

const MAX_LINES = 100_000;
/**
 * The values the host makes of one csv or jsonl file (decisions.md D337): a record or JSON line
 * and each field or JSON value is one, as a host call counts them (D321). The read cap bounds the
 * bytes, not the values: 8 MB of commas was one record of 8 M fields, ~6 s of the embedding
 * thread in one synchronous run. So: at most MAX_FILE_VALUES a file (100,000 records, MAX_LINES,
 * of nine fields), at most MAX_ITEM_VALUES a record or line (decoded-values.ts: the most the
 * thread makes without a pause), and a pause for the event loop every PAUSE_EVERY values,
 * where the render's end stops the work.
 */
export const MAX_FILE_VALUES = 1_000_000;
const PAUSE_EVERY = 20_000;

function tooManyValues(path: string, what: string): FileError {
  return new FileError('E_SIZE_LIMIT', path, what, { plugin: 'read_file', attr: 'path', reason: 'value-limit' });
}

/** Counts a file's values as its items are made; pauses for the event loop now and then, and stops when the render has ended. */
class ValueBudget {
  private made = 0;
  private sincePause = 0;
  constructor(
    private readonly path: string,
    private readonly signal: AbortSignal,
  ) {}

  async take(n: number): Promise<void> {
    this.made += n;
    if (this.made > MAX_FILE_VALUES) throw tooManyValues(this.path, `more than ${MAX_FILE_VALUES} values`);
    this.sincePause += n;
    if (this.sincePause < PAUSE_EVERY) return;
    this.sincePause = 0;
    await new Promise((r) => setImmediate(r));
    this.signal.throwIfAborted();
  }
}

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
    items = [];
    const budget = new ValueBudget(p.text, call.signal);
    try {
      for (const r of csvRecords(lines, MAX_ITEM_VALUES - 1)) {
        items.push(PhpArray.fromList(r));
        await budget.take(r.length + 1);
      }
    } catch (e) {
      if (e instanceof TooManyCsvValues)
        throw tooManyValues(p.text, `a record of more than ${MAX_ITEM_VALUES - 1} fields`);
      throw e;
    }
  } else if (type === 'jsonl') {
    items = [];
    const budget = new ValueBudget(p.text, call.signal);
    for (const [i, line] of lines.entries()) {
      if (line.trim() === '') continue;
      // Bounded before the line is decoded, so a line of millions of values is never decoded.
      const bound = jsonValuesBound(line);
      if (bound > MAX_ITEM_VALUES)
        throw tooManyValues(p.text, `line ${i + 1} may hold more than ${MAX_ITEM_VALUES} values`);
      const v = jsonDecode(line, true);
      if (v === null && line.trim() !== 'null' && log.length < 10)
        log.push({ level: 'warning', message: `{read_file} ${p.text} line ${i + 1}: invalid JSON` });
      items.push(v);
      await budget.take(bound);
    }
  } else {
    items = lines;
  }
  return { iterate: { var: rowVar, items }, log };
});
