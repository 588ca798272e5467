/**
 * CSV as PHP 8.2 reads and writes it: fgetcsv() and fputcsv() with their defaults (separator `,`,
 * enclosure `"`, escape `\`, fputcsv's eol "\n"). Strings are our byte-preserving strings
 * (src/value/bytes.ts); the work is on characters, which gives the same result as PHP's byte
 * loop because the three special characters are ASCII.
 *
 * fgetcsv (ext/standard/file.c php_fgetcsv), as implemented here:
 *  - A record is one line; a line break inside an enclosure continues the field on the next line
 *    (the break is kept as "\n": read_file splits lines on LF and drops a CR before it, so a CRLF
 *    inside a quoted field becomes LF - the one difference from PHP, which keeps the CR).
 *  - A blank line is one null field: [null] (PHP: "a blank line ... returned as an array
 *    comprising a single null field").
 *  - Before a field, whitespace (C isspace) is skipped only when an enclosure follows them; otherwise
 *    they belong to the field.
 *  - In an enclosed field, `""` is one `"`; the escape character `\` keeps itself AND the next
 *    character literally (so `\"` does not close the field and stays `\"`, as in PHP). After the
 *    closing enclosure, everything up to the next separator is appended as is (`"ab"cd` -> `abcd`).
 *  - An enclosure still open at the end of the file ends the field there.
 *  - Unenclosed fields are taken verbatim up to the separator (no trimming).
 *
 * fputcsv: a field is enclosed when it contains the separator, the enclosure, the escape
 * character, "\n", "\r", "\t" or a space; inside, `"` is doubled unless it directly follows an
 * unpaired escape character. Values are converted with PHP's string rules (true "1", false/null
 * "", floats as PHP prints them); a nested array is written as "Array" (PHP 8 also warns).
 */
import { toStr } from '../../value/convert.js';
import { PhpArray, type Value } from '../../value/value.js';

const SEP = ',';
const ENC = '"';
const ESC = '\\';
/** C isspace(). */
const SPACE = /[ \t\n\v\f\r]/;

/** A record with more fields than the caller allowed: parsing stopped there (csvRecords). */
export class TooManyCsvValues extends Error {}

/**
 * Parse records from lines (without terminators). `next()` supplies the following line when a
 * quoted field spans lines, or null at the end of the file. A field past `maxFields` throws
 * TooManyCsvValues before it is kept.
 */
function parseCsvRecord(first: string, next: () => string | null, maxFields: number): (string | null)[] {
  const fields: (string | null)[] = [];
  const push = (f: string | null): void => {
    if (fields.length >= maxFields) throw new TooManyCsvValues();
    fields.push(f);
  };
  if (first === '') {
    push(null);
    return fields;
  }
  let line = first;
  let i = 0;
  for (;;) {
    // 1. leading spaces/tabs are skipped only when an enclosure follows
    let j = i;
    while (j < line.length && line[j] !== SEP && SPACE.test(line[j])) j++;
    if (j < line.length && line[j] === ENC) {
      i = j + 1;
      let field = '';
      // 2. enclosed part
      for (;;) {
        if (i >= line.length) {
          const more = next();
          if (more === null) {
            push(field);
            return fields;
          }
          field += '\n';
          line = more;
          i = 0;
          continue;
        }
        const c = line[i];
        if (c === ESC && i + 1 < line.length) {
          field += c + line[i + 1];
          i += 2;
          continue;
        }
        if (c === ENC) {
          if (line[i + 1] === ENC) {
            field += ENC;
            i += 2;
            continue;
          }
          i++;
          break;
        }
        field += c;
        i++;
      }
      // 3. anything after the closing enclosure, up to the separator, is kept
      const sep = line.indexOf(SEP, i);
      const end = sep < 0 ? line.length : sep;
      field += line.slice(i, end);
      push(field);
      if (sep < 0) return fields;
      i = sep + 1;
    } else {
      const sep = line.indexOf(SEP, i);
      if (sep < 0) {
        push(line.slice(i));
        return fields;
      }
      push(line.slice(i, sep));
      i = sep + 1;
    }
  }
}

/**
 * The records of a file given as lines, one at a time (so a caller can pause between them). A
 * record of more than `maxFields` fields throws TooManyCsvValues as the field past the bound is
 * cut, so a line of millions of separators costs no more than the bound.
 */
export function* csvRecords(lines: readonly string[], maxFields = Infinity): Generator<(string | null)[]> {
  let k = 0;
  const next = (): string | null => (k < lines.length ? lines[k++] : null);
  while (k < lines.length) {
    const first = lines[k++];
    yield parseCsvRecord(first, next, maxFields);
  }
}

/** Parse every record of a file given as lines. */
export function parseCsvLines(lines: readonly string[]): (string | null)[][] {
  return [...csvRecords(lines)];
}

const NEEDS_ENCLOSURE = /[,"\\\n\r\t ]/;

function csvField(v: Value): string {
  const s = v instanceof PhpArray ? 'Array' : toStr(v);
  if (!NEEDS_ENCLOSURE.test(s)) return s;
  let out = ENC;
  let escaped = false;
  // php_fputcsv's loop, verbatim
  for (const c of s) {
    if (c === ESC) escaped = true;
    else if (!escaped && c === ENC) out += ENC;
    else escaped = false;
    out += c;
  }
  return out + ENC;
}

/** One CSV line as fputcsv writes it, with its "\n". */
export function formatCsvLine(row: PhpArray): string {
  return row.values().map(csvField).join(SEP) + '\n';
}
