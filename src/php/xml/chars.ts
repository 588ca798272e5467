/**
 * XML 1.0 (fifth edition) character classes, as libxml2 2.9 applies them without
 * XML_PARSE_OLD10: which characters may appear in a document, and which may start or
 * continue a name.
 */

const START =
  'A-Z_a-z\\u00C0-\\u00D6\\u00D8-\\u00F6\\u00F8-\\u02FF\\u0370-\\u037D\\u037F-\\u1FFF\\u200C\\u200D\\u2070-\\u218F\\u2C00-\\u2FEF\\u3001-\\uD7FF\\uF900-\\uFDCF\\uFDF0-\\uFFFD\\u{10000}-\\u{EFFFF}';
const MORE = '\\-.0-9\\u00B7\\u0300-\\u036F\\u203F\\u2040';

/** Sticky patterns: a name without colons (NCName), a Name (colons allowed anywhere), an Nmtoken. */
// ZWNJ, ZWJ and the combining marks are single members of XML's name classes, not sequences.
/* eslint-disable no-misleading-character-class */
export const NCNAME = new RegExp(`[${START}][${START}${MORE}]*`, 'uy');
export const NAME = new RegExp(`[:${START}][:${START}${MORE}]*`, 'uy');
export const NMTOKEN = new RegExp(`[:${START}${MORE}]+`, 'uy');
/* eslint-enable no-misleading-character-class */

/**
 * The first character that is not an XML Char: C0 controls other than tab, LF and CR,
 * U+FFFE, U+FFFF, and unpaired surrogates (which stand for bytes that were not UTF-8).
 */
const NOT_CHAR =
  /[\x00-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Offset of the first invalid character in s[start, end), or -1. */
export function firstInvalidChar(s: string, start: number, end: number): number {
  const re = NOT_CHAR;
  // On the slice, so that a long valid document is not scanned to its end for every text run.
  re.lastIndex = 0;
  const m = re.exec(s.slice(start, end));
  return m ? start + m.index : -1;
}

/** A character reference's value is allowed (XML Char production). */
export function isXmlCharCode(c: number): boolean {
  return (
    c === 0x9 ||
    c === 0xa ||
    c === 0xd ||
    (c >= 0x20 && c <= 0xd7ff) ||
    (c >= 0xe000 && c <= 0xfffd) ||
    (c >= 0x10000 && c <= 0x10ffff)
  );
}

/** S: the four whitespace characters (CR is gone after line-end normalisation, kept for clarity). */
export function isBlank(c: string | undefined): boolean {
  return c === ' ' || c === '\t' || c === '\n' || c === '\r';
}

/** PubidChar */
export function isPubidChar(c: string): boolean {
  return /^[ \r\na-zA-Z0-9\-'()+,./:=?;!*#@$_%]$/.test(c);
}
