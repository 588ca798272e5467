/**
 * The strict mail address grammar of {sendmail} (docs/security.md ML-02, ML-03): an RFC 5321/5322
 * addr-spec and nothing else. No display names, no comments, no angle brackets, no address
 * literals, no group syntax, no source routes, ASCII local parts only (no SMTPUTF8).
 *
 *   address    = local-part "@" domain            (at most 254 characters, canonical form)
 *   local-part = dot-atom / quoted-string          (at most 64 characters)
 *   domain     = label *("." label), two labels at least, the last one not all digits;
 *                label = 1..63 of [a-z0-9-], not starting or ending with "-"
 *                (Unicode domains are converted to their ASCII form first)
 *
 * Every address is returned in one canonical form: the domain in lower case, a quoted local
 * part unquoted when its content is a dot-atom (`"user"@x.example` is `user@x.example`), and
 * quoted with the fewest escapes otherwise. A local part starting with "-" is refused even
 * though RFC 5322 allows it: such an address is the classic sendmail command-flag injection
 * (CVE-2020-7769) and never a real mailbox worth the risk.
 *
 * Parsing is one left-to-right pass over the characters, with no regular expression that can
 * backtrack, so hostile input of any shape costs linear time (nodemailer CVE-2026-90776).
 */
import { domainToASCII } from 'node:url';

const MAX_ADDRESS_LENGTH = 254;
const MAX_LOCAL_LENGTH = 64;
const MAX_DOMAIN_LENGTH = 253;

export type AddressResult = { ok: true; address: string } | { ok: false; reason: string };

/** RFC 5322 atext (ASCII only). */
function isAtext(c: number): boolean {
  return (
    (c >= 0x61 && c <= 0x7a) || // a-z
    (c >= 0x41 && c <= 0x5a) || // A-Z
    (c >= 0x30 && c <= 0x39) || // 0-9
    c === 0x21 || // !
    (c >= 0x23 && c <= 0x27) || // # $ % & '
    c === 0x2a || // *
    c === 0x2b || // +
    c === 0x2d || // -
    c === 0x2f || // /
    c === 0x3d || // =
    c === 0x3f || // ?
    (c >= 0x5e && c <= 0x60) || // ^ _ `
    (c >= 0x7b && c <= 0x7e) // { | } ~
  );
}

/** True when `s` is a dot-atom: atext runs separated by single dots. */
function isDotAtom(s: string): boolean {
  if (s.length === 0) return false;
  let prevDot = true; // no leading dot
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x2e) {
      if (prevDot) return false;
      prevDot = true;
    } else if (isAtext(c)) {
      prevDot = false;
    } else return false;
  }
  return !prevDot; // no trailing dot
}

/** The canonical local part, or a reason. */
function canonicalLocal(raw: string): AddressResult {
  let content: string;
  if (raw.charCodeAt(0) === 0x22) {
    // quoted-string: DQUOTE *(qtext / quoted-pair) DQUOTE, qtext and quoted-pair printable ASCII or space
    if (raw.length < 2 || raw.charCodeAt(raw.length - 1) !== 0x22)
      return { ok: false, reason: 'unterminated quoted local part' };
    let out = '';
    for (let i = 1; i < raw.length - 1; i++) {
      const c = raw.charCodeAt(i);
      if (c === 0x5c) {
        i++;
        if (i >= raw.length - 1) return { ok: false, reason: 'a backslash ends the quoted local part' };
        const d = raw.charCodeAt(i);
        if (d < 0x20 || d > 0x7e) return { ok: false, reason: 'a control or non-ASCII character in the local part' };
        out += raw[i];
      } else if (c === 0x22) {
        return { ok: false, reason: 'text after the quoted local part' };
      } else if (c < 0x20 || c > 0x7e) {
        return { ok: false, reason: 'a control or non-ASCII character in the local part' };
      } else out += raw[i];
    }
    if (out.length === 0) return { ok: false, reason: 'empty local part' };
    content = out;
  } else {
    if (!isDotAtom(raw)) return { ok: false, reason: 'the local part is not a dot-atom' };
    content = raw;
  }
  if (content.charCodeAt(0) === 0x2d) return { ok: false, reason: 'the local part starts with "-"' };
  const local = isDotAtom(content) ? content : `"${content.replace(/[\\"]/g, (m) => `\\${m}`)}"`;
  if (local.length > MAX_LOCAL_LENGTH)
    return { ok: false, reason: `the local part is longer than ${MAX_LOCAL_LENGTH} characters` };
  return { ok: true, address: local };
}

/** The canonical (ASCII, lower-case) domain, or a reason. */
function canonicalDomain(raw: string): AddressResult {
  if (raw.length === 0) return { ok: false, reason: 'empty domain' };
  if (raw.length > 4 * MAX_DOMAIN_LENGTH) return { ok: false, reason: 'the domain is too long' };
  let ascii = raw;
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c < 0x21 || c === 0x7f) return { ok: false, reason: 'a space or control character in the domain' };
    if (c > 0x7f) {
      ascii = domainToASCII(raw);
      if (ascii === '') return { ok: false, reason: 'an invalid international domain' };
      break;
    }
  }
  ascii = ascii.toLowerCase();
  if (ascii.length > MAX_DOMAIN_LENGTH) return { ok: false, reason: 'the domain is too long' };
  const labels = ascii.split('.');
  if (labels.length < 2) return { ok: false, reason: 'the domain needs at least two labels' };
  for (const label of labels) {
    if (label.length === 0 || label.length > 63) return { ok: false, reason: 'an empty or over-long domain label' };
    for (let i = 0; i < label.length; i++) {
      const c = label.charCodeAt(i);
      const ok = (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x2d;
      if (!ok) return { ok: false, reason: 'a character that is not allowed in a domain' };
    }
    if (label.charCodeAt(0) === 0x2d || label.charCodeAt(label.length - 1) === 0x2d)
      return { ok: false, reason: 'a domain label starts or ends with "-"' };
  }
  if (/^\d+$/.test(labels[labels.length - 1])) return { ok: false, reason: 'the domain looks like an IP address' };
  return { ok: true, address: ascii };
}

/**
 * Parses one address (surrounding spaces and tabs are ignored). The local part and the domain
 * are split at the last "@" outside a quoted string; a quoted local part must be followed
 * directly by "@" (`"user"@a.example(x)b.example` is refused, CVE-2026-100699).
 */
export function parseAddress(input: string): AddressResult {
  const text = trimWsp(input);
  if (text.length === 0) return { ok: false, reason: 'empty address' };
  if (text.length > 4 * MAX_ADDRESS_LENGTH)
    return { ok: false, reason: `longer than ${MAX_ADDRESS_LENGTH} characters` };
  let at: number;
  if (text.charCodeAt(0) === 0x22) {
    // find the closing quote, honouring quoted-pairs
    let i = 1;
    for (; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x5c) i++;
      else if (c === 0x22) break;
    }
    if (i >= text.length) return { ok: false, reason: 'unterminated quoted local part' };
    if (text.charCodeAt(i + 1) !== 0x40) return { ok: false, reason: 'text after the quoted local part' };
    at = i + 1;
  } else {
    at = text.indexOf('@');
    if (at < 0) return { ok: false, reason: 'no "@"' };
  }
  if (at === 0) return { ok: false, reason: 'empty local part' };
  const local = canonicalLocal(text.slice(0, at));
  if (!local.ok) return local;
  const domain = canonicalDomain(text.slice(at + 1));
  if (!domain.ok) return domain;
  const address = `${local.address}@${domain.address}`;
  if (address.length > MAX_ADDRESS_LENGTH) return { ok: false, reason: `longer than ${MAX_ADDRESS_LENGTH} characters` };
  return { ok: true, address };
}

function trimWsp(s: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && (s.charCodeAt(a) === 0x20 || s.charCodeAt(a) === 0x09)) a++;
  while (b > a && (s.charCodeAt(b - 1) === 0x20 || s.charCodeAt(b - 1) === 0x09)) b--;
  return s.slice(a, b);
}

export type AddressListResult = { ok: true; addresses: string[] } | { ok: false; reason: string };

/**
 * Parses a comma-separated list of addresses (commas inside a quoted local part do not
 * split). Empty items (`a@x.example,`) are skipped. Stops with a refusal as soon as more than
 * `max` items are seen, before parsing them.
 */
export function parseAddressList(input: string, max: number): AddressListResult {
  if (input.length > (max + 1) * (4 * MAX_ADDRESS_LENGTH + 2))
    return { ok: false, reason: `more than ${max} recipients` };
  const items: string[] = [];
  let start = 0;
  let quoted = false;
  for (let i = 0; i <= input.length; i++) {
    const c = i < input.length ? input.charCodeAt(i) : 0x2c;
    if (quoted) {
      if (c === 0x5c) i++;
      else if (c === 0x22) quoted = false;
      else if (i === input.length) break;
      continue;
    }
    if (c === 0x22) quoted = true;
    else if (c === 0x2c) {
      const item = trimWsp(input.slice(start, Math.min(i, input.length)));
      if (item.length > 0) {
        items.push(item);
        if (items.length > max) return { ok: false, reason: `more than ${max} recipients` };
      }
      start = i + 1;
    }
  }
  if (quoted) return { ok: false, reason: 'unterminated quoted local part' };
  const addresses: string[] = [];
  for (const item of items) {
    const r = parseAddress(item);
    if (!r.ok) return { ok: false, reason: `${JSON.stringify(item.slice(0, 80))}: ${r.reason}` };
    addresses.push(r.address);
  }
  return { ok: true, addresses };
}

/** The domain of a canonical address. */
export function domainOf(address: string): string {
  return address.slice(address.lastIndexOf('@') + 1);
}
