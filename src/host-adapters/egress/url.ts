/**
 * Synchronous URL validation: the one parser (WHATWG `URL`) for the check and for the request.
 * Names are not resolved here; the connector resolves them and validates every answer.
 */
import { isIP } from 'node:net';
import { egressError } from './errors.js';
import { isPublicAddress } from './ip-class.js';
import type { EgressPolicy } from './policy.js';

export const MAX_URL_LENGTH = 8192;

/**
 * Characters refused anywhere in the raw input. WHATWG silently strips tab/CR/LF and treats
 * `\` as `/` in http(s) URLs: both are parser-confusion tricks, so a URL carrying them is
 * refused rather than normalized. Spaces and other controls must be percent-encoded.
 */

const RAW_FORBIDDEN =
  /[\u0000-\u0020\u007f\\]|[\u0080-\u009f\u00a0\u1680\u2000-\u200f\u2028-\u202f\u205f-\u206f\u3000\ufeff\ufff0-\uffff]/;

/** A DNS name as it may reach the resolver: LDH labels (plus `_`), at most 253 octets. */
const HOSTNAME =
  /^(?=.{1,253}\.?$)(?:[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?\.)*[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?\.?$/;

/** The kind of host a checked URL names. */
type HostKind = { kind: 'ip'; address: string } | { kind: 'name'; name: string };

function hostOf(url: URL): HostKind {
  const h = url.hostname;
  if (h.startsWith('[') && h.endsWith(']')) return { kind: 'ip', address: h.slice(1, -1) };
  if (isIP(h) === 4) return { kind: 'ip', address: h };
  return { kind: 'name', name: h };
}

/**
 * Parses and validates one URL. Returns a fresh URL without fragment; throws EgressError
 * (E_BAD_URL for malformed input, E_SSRF_DENIED for a well-formed URL the policy refuses).
 */
export function checkUrl(input: unknown, policy: EgressPolicy): URL {
  if (typeof input !== 'string') throw egressError('E_BAD_URL', input, 'URL must be a string');
  if (input.length === 0 || input.length > MAX_URL_LENGTH)
    throw egressError('E_BAD_URL', input, 'URL is empty or too long');
  if (RAW_FORBIDDEN.test(input))
    throw egressError('E_BAD_URL', input, 'URL contains whitespace, control characters or a backslash');

  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw egressError('E_BAD_URL', input, 'malformed URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw egressError('E_SSRF_DENIED', input, 'only http and https URLs are allowed');
  }
  // Userinfo, also the empty form `http://@host/`: find the authority in the raw text (no
  // backslashes left, so `//` then up to the first `/`, `?` or `#`).
  const afterScheme = input.slice(url.protocol.length);
  const authority = afterScheme.replace(/^\/*/, '').split(/[/?#]/, 1)[0] ?? '';
  if (url.username !== '' || url.password !== '' || authority.includes('@')) {
    throw egressError('E_SSRF_DENIED', input, 'credentials in URLs are not allowed');
  }
  const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
  if (!policy.allowedPorts.includes(port)) throw egressError('E_SSRF_DENIED', input, 'port not allowed');

  const host = hostOf(url);
  if (host.kind === 'ip') {
    if (!isPublicAddress(host.address, policy)) throw egressError('E_SSRF_DENIED', input, 'address not allowed');
  } else {
    const name = host.name;
    if (!HOSTNAME.test(name)) throw egressError('E_BAD_URL', input, 'malformed host name');
    const bare = name.endsWith('.') ? name.slice(0, -1) : name;
    // RFC 6761: localhost and its subdomains are loopback whatever DNS says.
    if (bare === 'localhost' || bare.endsWith('.localhost'))
      throw egressError('E_SSRF_DENIED', input, 'address not allowed');
    // A purely numeric last label that WHATWG did not take as IPv4 is not a DNS name either.
    if (/(^|\.)[0-9]+$/.test(bare) || /(^|\.)0x[0-9a-f]*$/.test(bare))
      throw egressError('E_BAD_URL', input, 'malformed host name');
  }
  url.hash = '';
  return url;
}
