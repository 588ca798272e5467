/**
 * Splits a PHP pattern string into body and modifiers, exactly as php_pcre.c does: leading
 * whitespace skipped, any delimiter but alphanumerics, backslash and NUL, bracket pairs
 * nesting, and modifier letters with spaces and newlines ignored.
 */
import { PcreCompileError } from './pcre-error.js';

export interface Modifiers {
  i: boolean;
  m: boolean;
  s: boolean;
  x: boolean;
  n: boolean;
  A: boolean;
  D: boolean;
  U: boolean;
  u: boolean;
  J: boolean;
}

export interface SplitPattern {
  /** The body as a binary string (one char per byte). */
  body: string;
  mods: Modifiers;
}

const CLOSERS: Record<string, string> = { '(': ')', '[': ']', '{': '}', '<': '>' };
const SPACE = /[ \t\n\v\f\r]/;
const ALNUM = /[A-Za-z0-9]/;

/** `bin` is the pattern in its one-char-per-byte form. */
export function splitPattern(bin: string): SplitPattern {
  let p = 0;
  while (p < bin.length && SPACE.test(bin[p])) p++;
  if (p >= bin.length) throw new PcreCompileError('Empty regular expression');
  const start = bin[p++];
  if (ALNUM.test(start) || start === '\\' || start === '\0') {
    throw new PcreCompileError('Delimiter must not be alphanumeric, backslash, or NUL');
  }
  const end = CLOSERS[start] ?? start;
  const bodyStart = p;
  let depth = 1;
  for (; p < bin.length; p++) {
    const c = bin[p];
    if (c === '\\' && p + 1 < bin.length) {
      p++;
    } else if (c === end && (start === end || --depth <= 0)) {
      break;
    } else if (c === start && start !== end) {
      depth++;
    }
  }
  if (p >= bin.length) {
    throw new PcreCompileError(
      start === end ? `No ending delimiter '${end}' found` : `No ending matching delimiter '${end}' found`,
    );
  }
  const body = bin.slice(bodyStart, p);
  const mods: Modifiers = {
    i: false,
    m: false,
    s: false,
    x: false,
    n: false,
    A: false,
    D: false,
    U: false,
    u: false,
    J: false,
  };
  let evalFlag = false;
  for (const c of bin.slice(p + 1)) {
    if (c === ' ' || c === '\n' || c === '\r' || c === 'S' || c === 'X') continue;
    if (c === 'e') {
      evalFlag = true;
      continue;
    }
    if (c in mods) {
      mods[c as keyof Modifiers] = true;
      continue;
    }
    if (c === '\0') throw new PcreCompileError('NUL is not a valid modifier');
    throw new PcreCompileError(`Unknown modifier '${c}'`);
  }
  // PHP checks /e only after all letters were accepted.
  if (evalFlag) throw new PcreCompileError('The /e modifier is no longer supported, use preg_replace_callback instead');
  return { body, mods };
}
