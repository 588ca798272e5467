/**
 * The string a translated pattern runs over, and the way back to PHP strings and byte offsets.
 *
 * Non-UTF patterns: the "byte view", one char per byte, bytes 0x80..0xFF as U+E080..U+E0FF
 * (see emit.ts); view indices are byte offsets. UTF patterns: the string itself; byte
 * offsets are computed from UTF-16 indices on demand.
 */
import { fromBytes, fromCharCodes, isAscii, toBytes } from '../../value/bytes.js';
import { BYTE_BASE } from './emit.js';

export interface Subject {
  /** What the RegExp runs over. */
  readonly view: string;
  /** Length in bytes. */
  readonly byteLength: number;
  /** A slice of the view as a PHP string. */
  slice(start: number, end: number): string;
  /** View text (a match, or a string built from view pieces) as a PHP string. */
  text(v: string): string;
  /** A PHP string in this subject's view form (for building replacements). */
  toView(s: string): string;
  /** Byte offset of a view index. */
  byteOffset(index: number): number;
  /** View index of a byte offset, or -1 when it falls inside a UTF-8 character. */
  indexOfByte(offset: number): number;
  /** Index just after the character at index (PHP advances one character after an empty match). */
  nextIndex(index: number): number;
}

function byteView(s: string): string {
  if (isAscii(s)) return s;
  const b = toBytes(s);
  // A chunk at a time: a long subject's bytes are already three times its length in memory.
  const chunk = new Uint16Array(Math.min(b.length, 4096));
  let view = '';
  for (let i = 0; i < b.length; i += chunk.length) {
    const n = Math.min(chunk.length, b.length - i);
    for (let k = 0; k < n; k++) chunk[k] = b[i + k] < 0x80 ? b[i + k] : BYTE_BASE + b[i + k];
    view += fromCharCodes(chunk.subarray(0, n));
  }
  return view;
}

export function byteSubject(s: string): Subject {
  const view = byteView(s);
  return {
    view,
    byteLength: view.length,
    slice: (a, z) => fromView(view.slice(a, z)),
    text: fromView,
    toView: (x) => byteView(x),
    byteOffset: (i) => i,
    indexOfByte: (o) => o,
    nextIndex: (i) => i + 1,
  };
}

function fromView(v: string): string {
  if (isAscii(v)) return v;
  const b = new Uint8Array(v.length);
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i);
    b[i] = c >= BYTE_BASE ? c - BYTE_BASE : c;
  }
  return fromBytes(b);
}

/** Null when the string is not valid UTF-8 (it holds escaped stray bytes or lone surrogates). */
export function utf8Subject(s: string): Subject | null {
  if (/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(s)) return null;
  const ascii = isAscii(s);
  // Byte offset of each UTF-16 index, built once when first needed.
  let table: Uint32Array | null = null;
  const offsets = (): Uint32Array => {
    if (table) return table;
    table = new Uint32Array(s.length + 1);
    let b = 0;
    for (let i = 0; i < s.length; i++) {
      table[i] = b;
      const c = s.charCodeAt(i);
      if (c < 0x80) b += 1;
      else if (c < 0x800) b += 2;
      else if (c >= 0xd800 && c <= 0xdbff) {
        table[i + 1] = b;
        b += 4;
        i++;
      } else b += 3;
    }
    table[s.length] = b;
    return table;
  };
  const byteLength = ascii ? s.length : offsets()[s.length];
  return {
    view: s,
    byteLength,
    slice: (a, z) => s.slice(a, z),
    text: (v) => v,
    toView: (x) => x,
    byteOffset: (i) => (ascii ? i : offsets()[i]),
    indexOfByte: (o) => {
      if (ascii) return o;
      const t = offsets();
      // Binary search: offsets are non-decreasing; the second unit of a pair repeats its start.
      let lo = 0;
      let hi = s.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (t[mid] < o) lo = mid + 1;
        else hi = mid;
      }
      return t[lo] === o ? lo : -1;
    },
    nextIndex: (i) => {
      const c = s.charCodeAt(i);
      return c >= 0xd800 && c <= 0xdbff && i + 1 < s.length ? i + 2 : i + 1;
    },
  };
}
