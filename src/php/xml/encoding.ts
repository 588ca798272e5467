/**
 * The encodings an XML declaration may name, as libxml2 (with glibc iconv behind it) reads
 * them, for a document that arrives as UTF-8 text: the declared encoding says how libxml
 * decodes those bytes.
 */
import { toBinary } from '../../value/bytes.js';
import { replaceEach } from '../../value/replace-each.js';

export type XmlEncoding =
  /** UTF-8, UTF8 (any case): libxml's native path. */
  | 'native'
  /** UTF-16, UTF16: libxml refuses the document, which is UTF-8. */
  | 'utf16'
  /** Other spellings iconv takes for UTF-8 (UTF_8, U.T.F-8...). */
  | 'utf8'
  | 'latin1'
  | 'cp1252'
  | 'ascii';

// glibc compares charset names upper-cased with punctuation removed.
const BY_KEY = new Map<string, XmlEncoding>([
  ['UTF8', 'utf8'],
  ...['ISO88591', 'LATIN1', 'L1', 'IBM819', 'CP819', 'CSISOLATIN1', 'ISOIR100', 'ISOLATIN1'].map(
    (k): [string, XmlEncoding] => [k, 'latin1'],
  ),
  ...['WINDOWS1252', 'CP1252', 'MSANSI'].map((k): [string, XmlEncoding] => [k, 'cp1252']),
  ...['ASCII', 'USASCII', 'ANSIX341968', 'ANSIX341986', 'ISO646US', 'US', 'CP367', 'IBM367', 'CSASCII', 'ISOIR6'].map(
    (k): [string, XmlEncoding] => [k, 'ascii'],
  ),
]);

/** null: an encoding this reader does not convert (Shift_JIS, EUC-JP...; iconv would). */
export function classifyEncoding(name: string): XmlEncoding | null {
  const upper = name.toUpperCase();
  if (upper === 'UTF-8' || upper === 'UTF8') return 'native';
  if (upper === 'UTF-16' || upper === 'UTF16') return 'utf16';
  return BY_KEY.get(replaceEach(upper, /[^A-Z0-9]/g, () => '', 'xml')) ?? null;
}

/** Windows-1252 for 0x80-0x9F; 0 marks the five bytes iconv refuses. */
const CP1252_HIGH = [
  0x20ac, 0, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017d, 0, 0,
  0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0, 0x017e, 0x0178,
];

/**
 * The UTF-8 bytes of `text` decoded as `enc` (for latin1, cp1252, ascii). A byte the encoding
 * cannot decode comes back as U+FFFF, which the parser rejects as a non-character.
 */
export function redecode(text: string, enc: 'latin1' | 'cp1252' | 'ascii'): string {
  const bin = toBinary(text);
  if (enc === 'latin1') return bin;
  return replaceEach(
    bin,
    /[\x80-\xff]/g,
    (c) => {
      const b = c.charCodeAt(0);
      if (enc === 'ascii') return '\uffff';
      if (b >= 0xa0) return c;
      const u = CP1252_HIGH[b - 0x80];
      return u === 0 ? '\uffff' : String.fromCharCode(u);
    },
    'xml',
  );
}
