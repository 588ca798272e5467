/**
 * Builds an RFC 5322 / MIME message from checked parts. The result is 7-bit ASCII with CRLF
 * line ends: non-ASCII subjects and names become RFC 2047 encoded-words, the UTF-8 body is
 * sent as 7bit (plain ASCII with short lines), quoted-printable (mostly ASCII) or base64.
 *
 * Header-bound values are refused when they hold CR, LF, NUL or another control character
 * (docs/security.md ML-01); the builder checks again, so no caller can inject a header line. The
 * Bcc list never appears in the headers.
 */
import { randomBytes } from 'node:crypto';
import { BridgeError } from '../../host-api/errors.js';

/** CR, LF, NUL and the other C0 controls except TAB, and DEL: never allowed in a header value. */

const HEADER_UNSAFE = /[\u0000-\u0008\u000a-\u001f\u007f]/;

/** True when `value` may go into a header (before encoding). */
export function headerSafe(value: string): boolean {
  return !HEADER_UNSAFE.test(value);
}

export interface MessageParts {
  from: { address: string; name: string };
  to: readonly string[];
  cc: readonly string[];
  subject: string;
  body: string;
  /** Unix milliseconds of the Date header. */
  date: number;
  /** The Message-ID (`<random@host>`, newMessageId): the caller keeps it for its outbox. */
  messageId: string;
  /** Extra header lines the host adds (name, already-checked ASCII value). */
  extraHeaders?: readonly [string, string][];
}

export type TransferEncoding = '7bit' | 'quoted-printable' | 'base64';

const MAX_LINE = 78;

function assertHeader(what: string, value: string): void {
  if (!headerSafe(value)) throw new BridgeError('E_MAIL_REJECTED', `${what} holds a line break or control character`);
}

function isPrintableAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c > 0x7e) return false;
  }
  return true;
}

/**
 * RFC 2047 B encoded-words of at most 75 characters each, split on character boundaries
 * (a UTF-8 sequence is never cut in two).
 */
export function encodedWords(text: string): string[] {
  const words: string[] = [];
  const MAX_BYTES = 42; // 56 base64 characters + 12 of framing = 68: fits after "Subject: " in 78
  let chunk: Buffer[] = [];
  let size = 0;
  const flush = () => {
    if (chunk.length) words.push(`=?UTF-8?B?${Buffer.concat(chunk).toString('base64')}?=`);
    chunk = [];
    size = 0;
  };
  for (const ch of text) {
    const b = Buffer.from(ch, 'utf8');
    if (size + b.length > MAX_BYTES) flush();
    chunk.push(b);
    size += b.length;
  }
  flush();
  return words;
}

/**
 * A header line folded at spaces so that lines stay within 78 characters where the value
 * allows it: `tokens` are joined with single spaces (folding inserts CRLF before a space, so
 * unfolding gives the same value back).
 */
export function foldHeader(name: string, tokens: readonly string[]): string {
  const lines: string[] = [];
  let line = `${name}:`;
  for (const t of tokens) {
    if (line.length + 1 + t.length > MAX_LINE && line.length > name.length + 1) {
      lines.push(line);
      line = '';
    }
    line += ` ${t}`;
  }
  lines.push(line);
  return lines.join('\r\n');
}

/** Unstructured text (Subject): kept as is when printable ASCII, else encoded-words. */
export function unstructured(name: string, value: string): string {
  assertHeader(name, value);
  if (value === '') return `${name}: `;
  if (isPrintableAscii(value) && !value.includes('=?') && !/^ | $| {2}/.test(value)) {
    const folded = foldHeader(name, value.split(' '));
    if (folded.split('\r\n').every((l) => l.length <= 998)) return folded;
  }
  return foldHeader(name, encodedWords(value));
}

/** A display name: a quoted-string when printable ASCII, else encoded-words. */
function displayName(name: string): string[] {
  if (isPrintableAscii(name) && name.length <= 60) return [`"${name.replace(/[\\"]/g, (m) => `\\${m}`)}"`];
  return encodedWords(name);
}

/** An address header with an optional display name for the first (From). */
function addressHeader(name: string, addresses: readonly string[], display?: string): string {
  const tokens: string[] = [];
  addresses.forEach((a, i) => {
    assertHeader(name, a);
    const sep = i < addresses.length - 1 ? ',' : '';
    if (display) tokens.push(...displayName(display), `<${a}>${sep}`);
    else tokens.push(`${a}${sep}`);
  });
  return foldHeader(name, tokens);
}

/** RFC 5322 date-time in UTC. */
function rfc5322Date(ms: number): string {
  const d = new Date(ms);
  const days = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const p = (n: number) => String(n).padStart(2, '0');
  return `${days[d.getUTCDay()]}, ${d.getUTCDate()} ${months[d.getUTCMonth()]} ${d.getUTCFullYear()} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())} +0000`;
}

/** Every line break (CRLF, lone CR, lone LF) as CRLF. */
function crlf(text: string): string {
  return text.replace(/\r\n|\r|\n/g, '\r\n');
}

/** Which transfer encoding the body needs. */
export function chooseEncoding(body: string): TransferEncoding {
  let nonAscii = 0;
  let longLine = false;
  let lineLength = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body.charCodeAt(i);
    if (c === 0x0a) {
      lineLength = 0;
      continue;
    }
    if (c !== 0x0d && ++lineLength > 998) longLine = true;
    if (c > 0x7e || (c < 0x20 && c !== 0x09 && c !== 0x0d)) nonAscii++;
  }
  if (nonAscii === 0 && !longLine) return '7bit';
  return nonAscii * 5 <= body.length ? 'quoted-printable' : 'base64';
}

/** RFC 2045 quoted-printable of UTF-8 text with CRLF line ends; encoded lines at most 76 characters. */
export function quotedPrintable(text: string): string {
  const out: string[] = [];
  for (const line of crlf(text).split('\r\n')) {
    const bytes = Buffer.from(line, 'utf8');
    let cur = '';
    for (let i = 0; i < bytes.length; i++) {
      const b = bytes[i];
      const last = i === bytes.length - 1;
      let tok: string;
      if ((b === 0x20 || b === 0x09) && !last) tok = String.fromCharCode(b);
      else if (b >= 0x21 && b <= 0x7e && b !== 0x3d) tok = String.fromCharCode(b);
      else tok = `=${b.toString(16).toUpperCase().padStart(2, '0')}`;
      if (cur.length + tok.length > 75) {
        out.push(`${cur}=`);
        cur = '';
      }
      cur += tok;
    }
    out.push(cur);
  }
  return out.join('\r\n');
}

/** Base64 of the UTF-8 text (CRLF line ends), in lines of 76 characters. */
function base64Lines(text: string): string {
  const b64 = Buffer.from(crlf(text), 'utf8').toString('base64');
  const lines: string[] = [];
  for (let i = 0; i < b64.length; i += 76) lines.push(b64.slice(i, i + 76));
  return lines.join('\r\n');
}

/** A new Message-ID: 128 random bits at `domain` (a host name the host controls). */
export function newMessageId(domain: string): string {
  return `<${randomBytes(16).toString('hex')}@${domain}>`;
}

/** The whole message: headers, a blank line, the encoded body; CRLF line ends, 7-bit ASCII. */
export function buildMessage(p: MessageParts): string {
  assertHeader('from', p.from.address);
  assertHeader('from_nm', p.from.name);
  const headers: string[] = [];
  headers.push(`Date: ${rfc5322Date(p.date)}`);
  headers.push(addressHeader('From', [p.from.address], p.from.name || undefined));
  if (p.to.length) headers.push(addressHeader('To', p.to));
  if (p.cc.length) headers.push(addressHeader('Cc', p.cc));
  headers.push(unstructured('Subject', p.subject));
  if (!/^<[A-Za-z0-9.-]{1,64}@[A-Za-z0-9.-]{1,253}>$/.test(p.messageId))
    throw new BridgeError('E_MAIL_REJECTED', 'the Message-ID is not of the form <id@host>');
  headers.push(`Message-ID: ${p.messageId}`);
  for (const [name, value] of p.extraHeaders ?? []) {
    assertHeader(name, value);
    if (!/^[A-Za-z0-9-]{1,64}$/.test(name) || !isPrintableAscii(value))
      throw new BridgeError('E_MAIL_REJECTED', `header ${name.slice(0, 64)} is not plain ASCII`);
    headers.push(foldHeader(name, value.split(' ')));
  }
  headers.push('MIME-Version: 1.0');
  headers.push('Content-Type: text/plain; charset=UTF-8');
  const encoding = chooseEncoding(p.body);
  headers.push(`Content-Transfer-Encoding: ${encoding}`);
  const body =
    encoding === '7bit'
      ? crlf(p.body)
      : encoding === 'quoted-printable'
        ? quotedPrintable(p.body)
        : base64Lines(p.body);
  return `${headers.join('\r\n')}\r\n\r\n${body}${body.endsWith('\r\n') || body === '' ? '' : '\r\n'}`;
}
