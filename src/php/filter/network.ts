/**
 * FILTER_VALIDATE_DOMAIN, FILTER_VALIDATE_URL and FILTER_VALIDATE_MAC, transcribed from
 * PHP 8.2's logical_filters.c. All checks run on bytes; C's isalnum() is ASCII-only.
 */
import { parseUrlParts } from '../array/parse-url.js';
import { FILTER_FLAG_HOSTNAME, FILTER_FLAG_PATH_REQUIRED, FILTER_FLAG_QUERY_REQUIRED } from './constants.js';
import { parseIpv6 } from './ip.js';
import { FAILED, type FilterInput, type Filtered, filterValueError, stringOption } from './options.js';
import { sanitizeUrlChars } from './sanitize.js';

const isAlnum = (c: string | undefined) => c !== undefined && /^[A-Za-z0-9]$/.test(c);

/** php_filter_validate_domain_ex. Reading past the end of the C string gives NUL, here ''. */
function isValidDomain(d: string, hostname: boolean): boolean {
  const at = (i: number) => (i < d.length ? d[i] : '\0');
  let e = d.length;
  let l = d.length;
  if (l > 0 && d[l - 1] === '.') {
    e--;
    l--;
  }
  if (l > 253) return false;
  if (at(0) === '.' || (hostname && !isAlnum(at(0)))) return false;
  let label = 1;
  for (let s = 0; s < e; s++) {
    if (d[s] === '.') {
      if (at(s + 1) === '.' || (hostname && (!isAlnum(at(s - 1)) || !isAlnum(at(s + 1))))) return false;
      label = 1;
    } else {
      if (label > 63 || (hostname && (d[s] !== '-' || at(s + 1) === '\0') && !isAlnum(d[s]))) return false;
      label++;
    }
  }
  return true;
}

export function validateDomain(input: FilterInput): Filtered {
  return isValidDomain(input.bin, (input.flags & FILTER_FLAG_HOSTNAME) !== 0) ? input.text : FAILED;
}

/** is_userinfo_valid: unreserved and sub-delim characters, ':' and "%" + decimal digit + hex digit. */
function isUserinfoValid(s: string): boolean {
  for (let p = 0; p < s.length;) {
    if (/^[A-Za-z0-9\-._~!$&'()*+,;=:]$/.test(s[p])) p++;
    else if (s[p] === '%' && p <= s.length - 3 && /^[0-9]$/.test(s[p + 1]) && /^[0-9A-Fa-f]$/.test(s[p + 2])) p += 3;
    else return false;
  }
  return true;
}

function isIpv6Hostname(host: string): boolean {
  return host[0] === '[' && host[host.length - 1] === ']' && host.length >= 2 && parseIpv6(host.slice(1, -1)) !== null;
}

export function validateUrl(input: FilterInput): Filtered {
  const s = input.bin;
  // A URL that FILTER_SANITIZE_URL would change (spaces, non-ASCII bytes...) is invalid.
  if (sanitizeUrlChars(s) !== s) return FAILED;
  const url = parseUrlParts(s);
  if (!url) return FAILED;
  const scheme = url.scheme;
  if (scheme !== undefined && /^https?$/i.test(scheme)) {
    if (url.host === undefined) return FAILED;
    if (!isIpv6Hostname(url.host) && !isValidDomain(url.host, true)) return FAILED;
  }
  if (scheme === undefined) return FAILED;
  // Only these schemes (compared case-sensitively) may have no host.
  if (url.host === undefined && scheme !== 'mailto' && scheme !== 'news' && scheme !== 'file') return FAILED;
  if (input.flags & FILTER_FLAG_PATH_REQUIRED && url.path === undefined) return FAILED;
  if (input.flags & FILTER_FLAG_QUERY_REQUIRED && url.query === undefined) return FAILED;
  if (url.user !== undefined && !isUserinfoValid(url.user)) return FAILED;
  if (url.pass !== undefined && !isUserinfoValid(url.pass)) return FAILED;
  return input.text;
}

export function validateMac(input: FilterInput): Filtered {
  const s = input.bin;
  const expected = stringOption(input, 'separator');
  if (expected !== undefined && expected.length !== 1)
    throw filterValueError('"separator" option must be one character long');
  let tokens: number;
  let length: number;
  let separator: string;
  if (s.length === 14) {
    [tokens, length, separator] = [3, 4, '.']; // EUI-64: 0123.4567.89ab
  } else if (s.length === 17 && (s[2] === '-' || s[2] === ':')) {
    [tokens, length, separator] = [6, 2, s[2]];
  } else {
    return FAILED;
  }
  if (expected !== undefined && separator !== expected[0]) return FAILED;
  for (let i = 0; i < tokens; i++) {
    const offset = i * (length + 1);
    if (i < tokens - 1 && s[offset + length] !== separator) return FAILED;
    if (!/^[0-9A-Fa-f]+$/.test(s.slice(offset, offset + length))) return FAILED;
  }
  return input.text;
}
