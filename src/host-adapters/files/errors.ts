/**
 * Errors of the virtual file layer.
 *
 * Every message names the path the way the TEMPLATE wrote it (or, for operations on an already
 * parsed path, its canonical virtual form), escaped and truncated to 200 characters. A real host
 * path never appears in a message, in a property, or in a `cause`: errors raised by `node:fs`
 * carry the real path, so they are translated here and the original error is dropped (only its
 * errno name survives, in `sysCode`).
 */

export type FileCode = 'E_PATH_DENIED' | 'E_FILE_NOT_FOUND' | 'E_QUOTA' | 'E_SIZE_LIMIT' | 'E_FILE_FAILED';

/** Maximum number of characters of the template's path quoted in a message. */
const QUOTE_MAX_CHARS = 200;

export interface FileErrorDetails {
  /** Plugin whose path rule was applied, e.g. `read_file`. */
  plugin?: string;
  /** Attribute of that plugin, e.g. `path`. */
  attr?: string;
  /** Short machine-readable reason, e.g. `dot-segment`, `root-not-allowed`, `symlink`. */
  reason?: string;
  /** errno name of the underlying fs failure (`ENOENT`, `ELOOP`...), never its message. */
  sysCode?: string;
}

export class FileError extends Error {
  readonly code: FileCode;
  /** The quoted virtual path (already escaped and truncated), or `(non-string)`. */
  readonly virtualPath: string;
  readonly plugin: string | undefined;
  readonly attr: string | undefined;
  readonly reason: string | undefined;
  readonly sysCode: string | undefined;

  constructor(code: FileCode, path: unknown, detail: string, d: FileErrorDetails = {}) {
    const quoted = quoteVirtualPath(path);
    const where = d.plugin ? `${d.plugin}${d.attr ? `.${d.attr}` : ''}: ` : '';
    // The code travels as `code`; in the message too, a report would print it twice.
    super(`${where}${quoted}: ${detail}`);
    this.name = 'FileError';
    this.code = code;
    this.virtualPath = quoted;
    this.plugin = d.plugin;
    this.attr = d.attr;
    this.reason = d.reason;
    this.sysCode = d.sysCode;
  }
}

/**
 * Quote a template-supplied path for a message: first 200 characters, every control, format,
 * separator, surrogate or non-ASCII-space character escaped as \uXXXX, the whole in double quotes.
 */
export function quoteVirtualPath(path: unknown): string {
  if (typeof path !== 'string') return path === undefined ? '(missing)' : `(${path === null ? 'null' : typeof path})`;
  let s = path;
  let cut = false;
  if (s.length > QUOTE_MAX_CHARS) {
    s = s.slice(0, QUOTE_MAX_CHARS);
    cut = true;
  }
  const escaped = s.replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}"\\]/gu, (c) => {
    if (c === '"') return '\\"';
    if (c === '\\') return '\\\\';
    return '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0');
  });
  return `"${escaped}"${cut ? '...' : ''}`;
}

/** The errno name (`ENOENT`...) of a node:fs failure, if it has one. */
export function errno(e: unknown): string | undefined {
  return typeof e === 'object' && e !== null && typeof (e as { code?: unknown }).code === 'string'
    ? (e as { code: string }).code
    : undefined;
}

/** Translate any failure into a FileError naming only the virtual path (the fs error, which names the real one, is dropped). */
export function translateFsError(e: unknown, p: { readonly text: string } | string, what: string): FileError {
  if (e instanceof FileError) return e;
  const text = typeof p === 'string' ? p : p.text;
  const code = errno(e);
  const mk = (c: FileCode, detail: string, reason: string) => new FileError(c, text, detail, { reason, sysCode: code });
  switch (code) {
    case 'ENOENT':
    case 'ENOTDIR':
      return mk('E_FILE_NOT_FOUND', 'no such file or directory', 'not-found');
    case 'ELOOP':
      return mk('E_PATH_DENIED', 'a symbolic link is on the path', 'symlink');
    case 'ENOSPC':
    case 'EDQUOT':
      return mk('E_QUOTA', 'storage full', 'storage-full');
    case 'EFBIG':
      return mk('E_SIZE_LIMIT', 'file too large', 'file-too-large');
    case 'EISDIR':
      return mk('E_FILE_FAILED', 'is a directory', 'is-directory');
    case 'ENOTEMPTY':
    case 'EEXIST':
      return mk('E_FILE_FAILED', 'directory not empty or target exists', 'exists');
    default:
      return mk('E_FILE_FAILED', `${what} failed${code ? ` (${code})` : ''}`, 'fs-error');
  }
}

// The refusals the storage raises in several places, with one wording each.

export function symlinkDenied(path: string, sysCode?: string): FileError {
  return new FileError('E_PATH_DENIED', path, 'a symbolic link is on the path', { reason: 'symlink', sysCode });
}

export function notRegularDenied(path: string, sysCode?: string): FileError {
  return new FileError('E_PATH_DENIED', path, 'not a regular file', { reason: 'not-regular', sysCode });
}

/** A hard link to another tenant's file cannot be told apart from a path, so such files are not read or appended to. */
export function hardLinkDenied(path: string): FileError {
  return new FileError('E_PATH_DENIED', path, 'file has several hard links', { reason: 'hard-link' });
}

export function isDirectoryFailure(path: string): FileError {
  return new FileError('E_FILE_FAILED', path, 'is a directory', { reason: 'is-directory' });
}
