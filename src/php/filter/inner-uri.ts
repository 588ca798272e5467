/**
 * check_inner_uri: does a URL lead to the site itself? Used to guard redirects, so every
 * rule errs on the side of "no" (a false "no" costs a link, a false "yes" is an open
 * redirect). The rules, in order:
 *
 * 1. Only strings count; anything with a control character, a space, a backslash or a
 *    non-ASCII character is refused (browsers drop tabs and newlines and read "\" as "/",
 *    so "/\evil.test" or "/\t/evil.test" would leave the site).
 * 2. A path that starts with exactly one "/" ("/news/1", "/?q=1") stays on the site.
 * 3. Otherwise the URL must be "http://", "https://" (scheme in any case) or "//" followed by
 *    an authority that ends at "/", "?", "#" or the end. Every other scheme (javascript:,
 *    data:, mailto:...) and every other relative form ("news/1", "?q", "#top") is refused.
 * 4. The authority must not hold user info ("@"), and must be the site's host exactly as in
 *    ROOT_URL, lower case ASCII, with no trailing dot and no percent escapes; an IDN host
 *    matches only in the same (punycode) form ROOT_URL uses.
 * 5. Ports must agree: an explicit port equal to the default port of the URL's own scheme
 *    (80 for http, 443 for https) counts as no port; an empty port ("host:") is refused.
 *    The scheme itself does not have to match ROOT_URL's (http and https both pass).
 * 6. Without a usable ROOT_URL, only rule 2 can say yes.
 */

interface Authority {
  host: string;
  port: string;
}

const DEFAULT_PORTS: Record<string, string> = { http: '80', https: '443' };

/** "host[:port]" with the scheme's default port dropped; null when it is not a plain host. */
function readAuthority(authority: string, scheme: string | null): Authority | null {
  const m = /^([a-z0-9.-]+)(?::([0-9]+))?$/.exec(authority);
  if (!m) return null;
  let port = m[2] ?? '';
  if (port !== '') port = String(Number(port));
  if (scheme && DEFAULT_PORTS[scheme] === port) port = '';
  return { host: m[1], port };
}

/** The site's own host and port from ROOT_URL, or null when ROOT_URL is not an http(s) URL. */
function rootAuthority(rootUrl: string): Authority | null {
  const m = /^(https?):\/\/([^/?#]*)/i.exec(rootUrl.trim());
  if (!m) return null;
  return readAuthority(m[2].toLowerCase(), m[1].toLowerCase());
}

export function isInnerUri(url: string, rootUrl: string): boolean {
  // Rule 1: printable ASCII only, no space, no backslash.
  if (!/^[\x21-\x7e]*$/.test(url) || url.includes('\\')) return false;
  // Rule 2.
  if (url.startsWith('/') && !url.startsWith('//')) return true;
  // Rule 3.
  const m = /^(?:([A-Za-z][A-Za-z0-9+.-]*):)?\/\/([^/?#]*)(?:[/?#]|$)/.exec(url);
  if (!m) return false;
  const scheme = m[1] === undefined ? null : m[1].toLowerCase();
  if (scheme !== null && scheme !== 'http' && scheme !== 'https') return false;
  const root = rootAuthority(rootUrl);
  if (!root) return false;
  // Rules 4 and 5: "@" and "%" never pass readAuthority; upper case letters neither.
  const own = readAuthority(m[2], scheme);
  if (!own || own.host.endsWith('.')) return false;
  // A protocol-relative URL keeps its explicit port as written ("//host:443" is refused).
  return own.host === root.host && own.port === root.port;
}
