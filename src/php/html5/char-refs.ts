/**
 * The parse errors of WHATWG HTML's character reference states (§13.2.5.72-80) for one `&`.
 */
import { legacyReferences, namedReferences } from './entity-names.js';

export interface RefProblem {
  code: string;
  message: string;
}

const ALNUM_RUN = /[A-Za-z0-9]*/y;

/**
 * The problem with the reference at s[at] === '&', or null. `inAttribute`: a legacy name
 * followed by `=` or a letter or digit is plain text there (`?a=1&copy=2`).
 */
export function checkCharRef(s: string, at: number, inAttribute: boolean): RefProblem | null {
  return s[at + 1] === '#' ? numeric(s, at + 2) : named(s, at + 1, inAttribute);
}

function numeric(s: string, from: number): RefProblem | null {
  const hex = s[from] === 'x' || s[from] === 'X';
  const re = hex ? /[0-9A-Fa-f]+/y : /[0-9]+/y;
  re.lastIndex = hex ? from + 1 : from;
  const m = re.exec(s);
  if (!m)
    return {
      code: 'absence-of-digits-in-numeric-character-reference',
      message: 'numeric character reference without digits',
    };
  if (s[re.lastIndex] !== ';')
    return {
      code: 'missing-semicolon-after-character-reference',
      message: `character reference &#${hex ? s[from] : ''}${m[0]} is not followed by ';'`,
    };
  // Beyond eight significant digits the value only needs to be known as too big.
  const digits = m[0].replace(/^0+/, '');
  const v = digits === '' ? 0 : digits.length > 8 ? Infinity : parseInt(digits, hex ? 16 : 10);
  const shown = `&#${hex ? s[from] : ''}${m[0]};`;
  if (v === 0) return { code: 'null-character-reference', message: `${shown} refers to U+0000` };
  if (v > 0x10ffff)
    return { code: 'character-reference-outside-unicode-range', message: `${shown} is beyond U+10FFFF` };
  if (v >= 0xd800 && v <= 0xdfff)
    return { code: 'surrogate-character-reference', message: `${shown} refers to a surrogate` };
  if ((v >= 0xfdd0 && v <= 0xfdef) || (v & 0xfffe) === 0xfffe)
    return { code: 'noncharacter-character-reference', message: `${shown} refers to a noncharacter` };
  if (v === 0x0d || (isControl(v) && !isAsciiWhitespace(v)))
    return { code: 'control-character-reference', message: `${shown} refers to a control character` };
  return null;
}

function isControl(v: number): boolean {
  return v <= 0x1f || (v >= 0x7f && v <= 0x9f);
}

function isAsciiWhitespace(v: number): boolean {
  return v === 0x09 || v === 0x0a || v === 0x0c || v === 0x0d || v === 0x20;
}

function named(s: string, from: number, inAttribute: boolean): RefProblem | null {
  ALNUM_RUN.lastIndex = from;
  const run = ALNUM_RUN.exec(s)![0];
  if (run === '') return null;
  const semicolon = s[from + run.length] === ';';
  if (semicolon && namedReferences().has(run)) return null;
  // The longest table entry that is a prefix of the input: only legacy names can match short of the ';'.
  const legacy = legacyReferences();
  for (let len = run.length; len > 0; len--) {
    const name = run.slice(0, len);
    if (!legacy.has(name)) continue;
    const next = s[from + len];
    if (inAttribute && next !== undefined && /[=A-Za-z0-9]/.test(next)) return null;
    return {
      code: 'missing-semicolon-after-character-reference',
      message: `character reference &${name} is not followed by ';'`,
    };
  }
  if (semicolon) return { code: 'unknown-named-character-reference', message: `unknown character reference &${run};` };
  return null;
}
