/**
 * The one error the egress guard lets out. `message` is written for the tenant: it names the
 * URL as the template (or a redirect) gave it, never an address a name resolved to, never a
 * host path, never an undici or OS error text.
 */

export type EgressCode =
  | 'E_SSRF_DENIED'
  | 'E_SECRET_DENIED'
  | 'E_BAD_URL'
  | 'E_BAD_HEADER'
  | 'E_HTTP_LIMIT'
  | 'E_HTTP_TIMEOUT'
  | 'E_HTTP_FAILED';

const MAX_URL_IN_MESSAGE = 200;

export class EgressError extends Error {
  readonly code: EgressCode;

  constructor(code: EgressCode, message: string) {
    super(message);
    this.name = 'EgressError';
    this.code = code;
  }
}

/**
 * A URL as given, made safe to echo: control characters escaped, cut to a fixed length.
 * Used for every URL that goes into a message.
 */
export function quoteUrl(url: unknown): string {
  if (typeof url !== 'string') return '(not a string)';
  let s = url.length > MAX_URL_IN_MESSAGE ? `${url.slice(0, MAX_URL_IN_MESSAGE)}...` : url;
  // JSON escaping covers CR, LF, NUL, tabs and other C0 controls; drop the outer quotes.
  s = JSON.stringify(s).slice(1, -1);
  return `"${s}"`;
}

export function egressError(code: EgressCode, url: unknown, reason: string): EgressError {
  return new EgressError(code, `${reason}: ${quoteUrl(url)}`);
}
