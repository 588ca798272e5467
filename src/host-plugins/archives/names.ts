/**
 * Entry names: how {unzip} decodes a stored name and decides what becomes of the entry, and how
 * {zip} checks the names a template gives. A name only ever becomes a path through
 * parseVirtualPath below the destination folder, so nothing it says can leave that folder; the
 * checks before that give each hostile form its own reason.
 *
 * Decisions (docs/decisions.md D79, D80):
 *  - Refused, the whole archive with it (E_PATH_DENIED, nothing written): a name longer than
 *    MAX_ENTRY_NAME_BYTES, not decodable in any encoding of detect_order (or not UTF-8 when the
 *    entry says it is), with NUL or another control character, a backslash, a leading `/`, a
 *    drive letter (`C:`), an empty, `.` or `..` segment, anything else parseVirtualPath refuses
 *    (reserved characters, device names, percent escapes, compatibility characters, too long or
 *    too deep once below dest), two entries naming the same path (also when they differ only in
 *    Unicode normalisation: paths are compared in NFC), and a file where another entry needs a folder.
 *  - Skipped, listed in unzip_result with the reason: folder entries (folders are made by the
 *    files in them; an empty one is not kept), links and other entries that are not regular files
 *    (Unix file type in the external attributes), and names with a segment starting with a dot
 *    (`.DS_Store`, `__MACOSX/._a.txt`), which no virtual path can name.
 *  - Names differing only in case are two files (the stores are case-sensitive).
 */
import { TextDecoder } from 'node:util';
import { FileError } from '../../host-adapters/files/errors.js';
import { isUnder, parseVirtualPath, type VirtualPath } from '../../host-adapters/files/virtual-path.js';
import { BridgeError } from '../../host-api/errors.js';
import { PhpArray, type Value } from '../../value/value.js';
import { MAX_ENTRY_NAME_BYTES } from './limits.js';

/** detect_order names (PHP mbstring's, case-insensitive) and the WHATWG encoding each decodes with. */
const ENCODINGS: Readonly<Record<string, string>> = {
  utf8: 'utf-8',
  'utf-8': 'utf-8',
  cp932: 'shift_jis',
  sjis: 'shift_jis',
  'sjis-win': 'shift_jis',
  shift_jis: 'shift_jis',
  'windows-31j': 'shift_jis',
  'euc-jp': 'euc-jp',
  'eucjp-win': 'euc-jp',
  cp51932: 'euc-jp',
};

const DEFAULT_DETECT_ORDER = ['utf8', 'cp932', 'EUC-JP'] as const;

/** detect_order as decoders: an array or a comma-separated string of the names above (E_BAD_ATTRIBUTE otherwise). */
export function detectOrder(v: Value | undefined): TextDecoder[] {
  let names: string[];
  if (v === undefined || v === null || v === '') names = [...DEFAULT_DETECT_ORDER];
  else if (typeof v === 'string') names = v.split(',').map((s) => s.trim());
  else if (v instanceof PhpArray) names = v.values().map((x) => (typeof x === 'string' ? x.trim() : ''));
  else throw new BridgeError('E_BAD_ATTRIBUTE', '{unzip} detect_order= must be an array of encoding names');
  if (names.length === 0 || names.length > 8)
    throw new BridgeError('E_BAD_ATTRIBUTE', '{unzip} detect_order= names 1 to 8 encodings');
  return names.map((n) => {
    const label = Object.prototype.hasOwnProperty.call(ENCODINGS, n.toLowerCase())
      ? ENCODINGS[n.toLowerCase()]
      : undefined;
    if (label === undefined)
      throw new BridgeError(
        'E_BAD_ATTRIBUTE',
        `{unzip} detect_order: unknown encoding ${JSON.stringify(n.slice(0, 40))} (known: ${Object.keys(ENCODINGS).join(', ')})`,
      );
    return new TextDecoder(label, { fatal: true });
  });
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

function refuse(name: string, reason: string, detail: string): FileError {
  return new FileError('E_PATH_DENIED', name, `archive refused (${reason}): ${detail}`, {
    plugin: 'unzip',
    attr: 'src',
    reason,
  });
}

/** The stored name as text: UTF-8 when the entry's flag says so, else the first of `order` that decodes it. */
export function decodeName(raw: Uint8Array, utf8Flag: boolean, order: readonly TextDecoder[]): string {
  const shown = Buffer.from(raw.subarray(0, 60)).toString('latin1');
  if (raw.length > MAX_ENTRY_NAME_BYTES)
    throw refuse(shown, 'name-too-long', `a name is longer than ${MAX_ENTRY_NAME_BYTES} bytes`);
  for (const d of utf8Flag ? [UTF8] : order) {
    try {
      return d.decode(raw);
    } catch {
      // not this encoding: the next one
    }
  }
  throw refuse(
    shown,
    'name-encoding',
    utf8Flag ? 'the name is marked UTF-8 but is not' : 'the name decodes in none of detect_order',
  );
}

export type EntryKind = 'file' | 'folder' | 'link' | 'special';

export type Verdict = { write: VirtualPath } | { skip: string };

const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
const S_IFLNK = 0o120000;

/** What an entry is, from its name and the Unix file type in the high half of its external attributes. */
export function entryKind(name: string, externalAttributes: number): EntryKind {
  const type = (externalAttributes >>> 16) & S_IFMT;
  if (type === S_IFLNK) return 'link';
  if (name.endsWith('/') || type === S_IFDIR) return 'folder';
  if (type === 0 || type === S_IFREG) return 'file';
  return 'special';
}

/**
 * What becomes of one entry below `dest`: the path to write, or why it is skipped. Throws
 * E_PATH_DENIED for the names that refuse the archive (see the decisions above).
 */
export function verdict(name: string, kind: EntryKind, dest: VirtualPath): Verdict {
  if (/[\x00-\x1f\x7f]/.test(name))
    throw refuse(name, 'control-character', 'NUL and control characters are not allowed in names');
  if (name.includes('\\')) throw refuse(name, 'backslash', 'a backslash is not a separator here and is not allowed');
  if (name.startsWith('/')) throw refuse(name, 'absolute', 'absolute names are not allowed');
  if (/^[A-Za-z]:/.test(name)) throw refuse(name, 'drive-letter', 'drive letters are not allowed');
  const segments = (name.endsWith('/') ? name.slice(0, -1) : name).split('/');
  for (const s of segments) {
    if (s === '..' || s === '.') throw refuse(name, 'dot-segment', "'.' and '..' segments are not allowed");
    if (s === '') throw refuse(name, 'empty-segment', 'empty segments are not allowed');
  }
  if (kind === 'folder') return { skip: 'folder' };
  if (kind === 'link') return { skip: 'link' };
  if (kind === 'special') return { skip: 'not a regular file' };
  if (segments.some((s) => s.startsWith('.'))) return { skip: 'dot-file' };
  let p: VirtualPath;
  try {
    p = parseVirtualPath(`${dest.text}/${segments.join('/')}`);
  } catch (e) {
    if (e instanceof FileError) throw refuse(name, e.reason ?? 'bad-name', e.message.replace(/^.*?: /, ''));
    throw e;
  }
  if (!isUnder(p, dest.text) || p.text === dest.text)
    throw refuse(name, 'outside-dest', 'the name leaves the destination folder');
  return { write: p };
}

/**
 * Paths of one archive: each once (NFC, as parseVirtualPath gives them), and never a file where
 * another entry needs a folder (`a` and `a/b`).
 */
export class PathSet {
  private readonly files = new Set<string>();
  private readonly folders = new Set<string>();

  add(p: VirtualPath, name: string): void {
    if (this.files.has(p.text) || this.folders.has(p.text))
      throw refuse(
        name,
        this.files.has(p.text) ? 'duplicate-name' : 'file-and-folder',
        'two entries name the same path',
      );
    const parts = p.text.split('/');
    for (let i = parts.length - 1; i > 0; i--) {
      const folder = parts.slice(0, i).join('/');
      if (this.files.has(folder))
        throw refuse(name, 'file-and-folder', 'an entry needs a folder where another entry is a file');
      this.folders.add(folder);
    }
    this.files.add(p.text);
  }
}

/** A name {zip} is given for an entry: a clean relative path (any name parseVirtualPath refuses is refused). */
export function zipEntryName(name: Value | undefined, index: number): string {
  if (typeof name !== 'string' || name === '')
    throw new BridgeError('E_BAD_ATTRIBUTE', `{zip} entries[${index}] needs a name`);
  const where = { plugin: 'zip', attr: `entries[${index}].name` };
  if (name.startsWith('/') || name.endsWith('/'))
    throw new FileError('E_PATH_DENIED', name, 'an entry name is a relative file path', {
      ...where,
      reason: 'not-relative',
    });
  return parseVirtualPath(`/files/g/${name}`, where).segments.join('/');
}
