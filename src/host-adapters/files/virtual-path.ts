/**
 * Virtual paths: the only way a template names a file.
 *
 * A template writes `/files/user/report.csv`; this module decides whether that string is a
 * well-formed path under one of the documented roots and returns its single canonical form. It is
 * pure string work and never touches the filesystem (FS-04: rejected before touching fs). Which
 * roots a given plugin attribute may use is decided in `plugin-roots.ts`; what a tenant's storage
 * does with a canonical path is `file-store.ts` (TenantFiles, `tenant-files.ts`, for a local folder).
 *
 * Decisions (docs/security.md FS-01..05, FS-08, FS-12; design rule 9):
 *
 *  - Input must be a `string`. Numbers, arrays, objects, null are denied, not coerced.
 *  - Length: at most 1024 UTF-8 bytes for the whole path and 255 bytes per segment, at most 64
 *    segments. Checked on the input before any other work.
 *  - Unicode: lone surrogates and noncharacters (U+FFFE/U+FFFF and friends) are denied. The path is
 *    normalized to NFC and the NFC form is the canonical form used for rule checks, storage keys and
 *    locks (FS-08: NFD `e\u0301` and NFC `\u00e9` name the same file).
 *  - Denied characters: C0 controls, DEL, C1 controls (`\p{Cc}`), every format character `\p{Cf}`
 *    (this covers U+202E and all other bidi controls, zero-width characters, BOM, soft hyphen),
 *    U+2028/U+2029, backslash, and the Windows-reserved `< > : " | ? *` (so `COM1:`, `C:foo`,
 *    `a.txt::$DATA` and `file://...` fail on every platform).
 *  - `%`: nothing is ever percent-decoded. A `%` followed by two hex digits (or IIS-style `%uXXXX`)
 *    is DENIED (it looks like an escape and some other layer - a URL builder, a web server, object
 *    storage - might decode it, turning `%2e%2e` into `..` later). A lone `%` (`100%.csv`) is allowed.
 *  - Case: roots are matched case-sensitively (`/FILES/USER/x` is denied: no such root); the rest
 *    of the path is kept as written (Linux and object storage are case-sensitive). Device names are
 *    compared case-insensitively.
 *  - Compatibility characters (NFKC): docs/security.md FS-02 asks to reject segments that change under
 *    NFKC. Taken literally that refuses common Japanese file names (`\u2460` circled digits,
 *    full-width digits, half-width katakana, `\u3231`), so the rule is narrowed: a segment is denied when
 *    a character that NFKC changes maps to path-significant ASCII (`. / \ : % * ? " < > |` or a
 *    control), or when the NFKC form of the segment fails any segment rule below (so `\uff0e\uff0e`,
 *    `\uff0f`, `\uff3c`, `\uff23\uff2f\uff2e`, `a\u2024txt` are denied; `\u8cc7\u6599\u2460.pdf` is allowed).
 *  - Separators: `/` only. Empty segments are denied (`//` is NOT collapsed: denying is simpler and
 *    never ambiguous), except ONE trailing slash, which is accepted and dropped (`/files/user/dir/`
 *    is `/files/user/dir`; `trailingSlash` records it). `.` and `..` segments are denied, never
 *    resolved.
 *  - Segments may not start with `.` (dotfiles: `.htaccess`, `.user.ini` under a publicly served
 *    root, and the `.smartcage-tmp-` prefix this layer uses for its own temporary files), may not
 *    start or end with a space, may not end with `.` (Windows strips trailing dots and spaces, so
 *    `a.txt.` and `a.txt ` alias `a.txt`).
 *  - Windows device names are denied in any case and with any extension: CON, PRN, AUX, NUL,
 *    COM0-9, LPT0-9, the superscript forms COM\u00b9\u00b2\u00b3 / LPT\u00b9\u00b2\u00b3, CONIN$, CONOUT$, CLOCK$ (`aux.txt`,
 *    `con.tar.gz`, `Nul .txt`).
 *  - Roots: the path must start with one of KNOWN_ROOTS. The root itself (`/files/user`,
 *    `/files/user/`) parses (segments `[]`); whether a plugin may name a root is the plugin rule's
 *    decision (`allowRoot`), and a FileStore never removes or writes a root.
 *  - Leading slash: `leadingSlash: 'required'` (default) accepts only `/files/...`; `'forbidden'`
 *    accepts only `files/...` (rename_file, copy_s3_temp_file file_id); `'optional'` accepts both.
 *    The canonical `text` always starts with `/`.
 */

import { FileError } from './errors.js';

export const KNOWN_ROOTS = [
  '/files/user',
  '/files/ltd',
  '/files/temp',
  '/files/g',
  '/files/a',
  '/files/d',
  '/files/topics',
  '/files/inquiry',
  '/files/member/ext',
] as const;

export type KnownRoot = (typeof KNOWN_ROOTS)[number];

export type LeadingSlash = 'required' | 'forbidden' | 'optional';

export interface VirtualPath {
  /** One of KNOWN_ROOTS, e.g. `/files/user`. */
  readonly root: string;
  /** Segments below the root, canonical (NFC), each validated; `[]` for the root itself. */
  readonly segments: readonly string[];
  /** Canonical form: root + '/' + segments, always with a leading slash, never a trailing one. */
  readonly text: string;
  /** The input ended with one `/` (a folder was meant). Not part of `text`. */
  readonly trailingSlash: boolean;
}

export interface ParseOptions {
  leadingSlash?: LeadingSlash;
  /** Plugin and attribute named in error messages. */
  plugin?: string;
  attr?: string;
}

export const MAX_PATH_BYTES = 1024;
export const MAX_SEGMENT_BYTES = 255;
export const MAX_SEGMENTS = 64;

const ROOT_SEGMENTS: readonly (readonly string[])[] = [...KNOWN_ROOTS]
  .map((r) => r.slice(1).split('/'))
  // longest first so /files/member/ext is tried before anything shorter
  .sort((a, b) => b.length - a.length);

const encoder = new TextEncoder();

export function utf8Length(s: string): number {
  return encoder.encode(s).length;
}

// Controls (C0, DEL, C1), format characters (bidi controls, ZW*, BOM, soft hyphen), line and
// paragraph separators, surrogates (lone ones: paired ones are matched as their code point).
const BAD_CHAR = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u;
// Noncharacters: U+FDD0..U+FDEF and U+xFFFE/U+xFFFF in every plane.
const NONCHAR =
  /[\uFDD0-\uFDEF\uFFFE\uFFFF\u{1FFFE}\u{1FFFF}\u{2FFFE}\u{2FFFF}\u{3FFFE}\u{3FFFF}\u{4FFFE}\u{4FFFF}\u{5FFFE}\u{5FFFF}\u{6FFFE}\u{6FFFF}\u{7FFFE}\u{7FFFF}\u{8FFFE}\u{8FFFF}\u{9FFFE}\u{9FFFF}\u{AFFFE}\u{AFFFF}\u{BFFFE}\u{BFFFF}\u{CFFFE}\u{CFFFF}\u{DFFFE}\u{DFFFF}\u{EFFFE}\u{EFFFF}\u{FFFFE}\u{FFFFF}\u{10FFFE}\u{10FFFF}]/u;
const WINDOWS_RESERVED = /[<>:"|?*\\]/;
const PERCENT_ESCAPE = /%(?:[0-9A-Fa-f]{2}|[uU][0-9A-Fa-f]{4})/;
const DEVICE_NAME =
  /^(con|prn|aux|nul|com[0-9\u00b9\u00b2\u00b3]|lpt[0-9\u00b9\u00b2\u00b3]|conin\$|conout\$|clock\$)$/i;
// ASCII characters a compatibility mapping must never produce.
const PATH_SIGNIFICANT_ASCII = /[./\\:%*?"<>|\x00-\x1f\x7f]/;

function hasLoneSurrogate(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const n = s.charCodeAt(i + 1);
      if (n >= 0xdc00 && n <= 0xdfff) {
        i++;
        continue;
      }
      return true;
    }
    if (c >= 0xdc00 && c <= 0xdfff) return true;
  }
  return false;
}

/** Why a single segment is not acceptable, or null when it is. Exported for tests and archives. */
export function segmentProblem(seg: string): string | null {
  if (seg === '') return 'empty-segment';
  if (seg === '.' || seg === '..') return 'dot-segment';
  if (utf8Length(seg) > MAX_SEGMENT_BYTES) return 'segment-too-long';
  if (BAD_CHAR.test(seg)) return 'control-character';
  if (NONCHAR.test(seg)) return 'noncharacter';
  if (WINDOWS_RESERVED.test(seg)) return seg.includes('\\') ? 'backslash' : 'reserved-character';
  if (PERCENT_ESCAPE.test(seg)) return 'percent-escape';
  if (seg.startsWith('.')) return 'dot-file';
  if (seg.startsWith(' ')) return 'leading-space';
  if (seg.endsWith('.') || seg.endsWith(' ')) return 'trailing-dot-or-space';
  // Windows device names: the part before the first dot, trailing spaces ignored ("CON .txt").
  const base = seg.split('.')[0].replace(/ +$/, '');
  if (DEVICE_NAME.test(base)) return 'device-name';
  return null;
}

function compatProblem(seg: string): string | null {
  const nfkc = seg.normalize('NFKC');
  if (nfkc === seg) return null;
  for (const ch of seg) {
    const m = ch.normalize('NFKC');
    if (m !== ch && PATH_SIGNIFICANT_ASCII.test(m)) return 'compatibility-character';
  }
  const p = segmentProblem(nfkc);
  return p === null ? null : 'compatibility-' + p;
}

function deny(input: unknown, reason: string, detail: string, o: ParseOptions): FileError {
  return new FileError('E_PATH_DENIED', input, detail, { plugin: o.plugin, attr: o.attr, reason });
}

const REASON_TEXT: Record<string, string> = {
  'empty-segment': 'empty path segment (double or leading slash)',
  'dot-segment': "'.' and '..' segments are not allowed",
  'segment-too-long': `a path segment is longer than ${MAX_SEGMENT_BYTES} bytes`,
  'control-character': 'control, format or bidi characters are not allowed',
  noncharacter: 'Unicode noncharacters are not allowed',
  backslash: 'backslash is not a path separator here and is not allowed',
  'reserved-character': 'characters < > : " | ? * are not allowed',
  'percent-escape': 'percent-escapes are never decoded and are not allowed',
  'dot-file': 'segments may not start with a dot',
  'leading-space': 'segments may not start with a space',
  'trailing-dot-or-space': 'segments may not end with a dot or a space',
  'device-name': 'Windows device names are not allowed',
  'compatibility-character': 'a compatibility character stands for a path-significant character',
};

function reasonText(reason: string): string {
  if (reason.startsWith('compatibility-') && reason !== 'compatibility-character') {
    return `the NFKC form of a segment is not allowed (${REASON_TEXT[reason.slice(14)] ?? reason})`;
  }
  return REASON_TEXT[reason] ?? reason;
}

/** Parse and canonicalize a template path. Throws FileError E_PATH_DENIED. */
export function parseVirtualPath(input: unknown, opts: ParseOptions = {}): VirtualPath {
  const leading = opts.leadingSlash ?? 'required';
  if (typeof input !== 'string') throw deny(input, 'not-a-string', 'a path must be a string', opts);
  if (input.length > MAX_PATH_BYTES || utf8Length(input) > MAX_PATH_BYTES) {
    throw deny(input, 'path-too-long', `longer than ${MAX_PATH_BYTES} bytes`, opts);
  }
  if (input === '') throw deny(input, 'empty', 'empty path', opts);
  if (hasLoneSurrogate(input)) throw deny(input, 'control-character', reasonText('control-character'), opts);

  const nfc = input.normalize('NFC');
  let body: string;
  if (nfc.startsWith('/')) {
    if (leading === 'forbidden')
      throw deny(
        input,
        'leading-slash',
        'this attribute takes a path written without a leading slash (files/...)',
        opts,
      );
    body = nfc.slice(1);
  } else {
    if (leading === 'required') throw deny(input, 'no-leading-slash', 'a path must start with /files/', opts);
    body = nfc;
  }
  let trailingSlash = false;
  if (body.endsWith('/')) {
    trailingSlash = true;
    body = body.slice(0, -1);
  }
  const parts = body.split('/');
  if (parts.length > MAX_SEGMENTS + 3) throw deny(input, 'too-deep', `more than ${MAX_SEGMENTS} segments`, opts);

  // Validate every segment (including the root's) before looking at roots, so the reason given is
  // the most specific one ('dot-segment' for /files/user/../x rather than 'unknown-root').
  for (const seg of parts) {
    const p = segmentProblem(seg) ?? compatProblem(seg);
    if (p !== null) throw deny(input, p, reasonText(p), opts);
  }

  const rootSegs = ROOT_SEGMENTS.find((rs) => rs.length <= parts.length && rs.every((s, i) => parts[i] === s));
  if (!rootSegs) throw deny(input, 'unknown-root', `not under a known root (${KNOWN_ROOTS.join(', ')})`, opts);
  const segments = parts.slice(rootSegs.length);
  if (segments.length > MAX_SEGMENTS) throw deny(input, 'too-deep', `more than ${MAX_SEGMENTS} segments`, opts);
  const root = '/' + rootSegs.join('/');
  const text = segments.length ? `${root}/${segments.join('/')}` : root;
  return Object.freeze({ root, segments: Object.freeze(segments), text, trailingSlash });
}

/**
 * Join one validated file name (a single segment, e.g. detect_document_text's file_nm) to a
 * directory path. Throws E_PATH_DENIED when `name` is not exactly one acceptable segment.
 */
export function joinSegment(dir: VirtualPath, name: unknown, opts: ParseOptions = {}): VirtualPath {
  if (typeof name !== 'string') throw deny(name, 'not-a-string', 'a file name must be a string', opts);
  const nfc = name.normalize('NFC');
  if (hasLoneSurrogate(name)) throw deny(name, 'control-character', reasonText('control-character'), opts);
  if (nfc.includes('/')) throw deny(name, 'separator-in-name', 'a file name may not contain /', opts);
  const p = segmentProblem(nfc) ?? compatProblem(nfc);
  if (p !== null) throw deny(name, p, reasonText(p), opts);
  return parseVirtualPath(`${dir.text}/${nfc}`, { ...opts, leadingSlash: 'required' });
}

/** True when `p` is `prefix` itself or below it (prefix is a canonical virtual path text). */
export function isUnder(p: VirtualPath, prefix: string): boolean {
  return p.text === prefix || p.text.startsWith(prefix + '/');
}

/** Re-validate a VirtualPath (it may have been built by hand) and return the canonical one: every FileStore operation starts with it. */
export function revalidate(p: VirtualPath): VirtualPath {
  const text = (p as { text?: unknown } | null)?.text;
  const q = parseVirtualPath(text);
  if (p.root !== q.root || p.segments.length !== q.segments.length || p.segments.some((s, i) => s !== q.segments[i])) {
    throw new FileError('E_PATH_DENIED', text, 'inconsistent virtual path object', { reason: 'forged-path' });
  }
  return q;
}

/** A FileStore never writes, removes or moves a root (FS-12). */
export function refuseRoot(p: VirtualPath, what: string): VirtualPath {
  if (p.segments.length === 0)
    throw new FileError('E_PATH_DENIED', p.text, `cannot ${what} a root`, { reason: 'root-itself' });
  return p;
}
