/**
 * Routes of the harness's allowed server that hand a request's secret back, the way real
 * servers do by accident: echo endpoints, Location headers built from a header, open
 * redirectors, base64 and URL encodings (HH-03). The secret is read from `X-Api-Key` (or
 * `Authorization: Bearer ...`); each route answers with it in every form of `reflectedForms`.
 */
import type http from 'node:http';

/** The value as bytes, percent-encoded except `keep` (A-Za-z0-9 always kept). */
function percent(v: string, keep: string, hex: 'upper' | 'lower', space = '%20'): string {
  let out = '';
  for (const b of Buffer.from(v, 'utf8')) {
    const c = String.fromCharCode(b);
    if (/[A-Za-z0-9]/.test(c) || keep.includes(c)) out += c;
    else if (c === ' ') out += space;
    else {
      const h = b.toString(16).padStart(2, '0');
      out += `%${hex === 'upper' ? h.toUpperCase() : h}`;
    }
  }
  return out;
}

/** PHP json_encode's default: `/` escaped, non-ASCII as \uXXXX. */
function phpJson(v: string): string {
  return JSON.stringify(v)
    .slice(1, -1)
    .replace(/\//g, '\\/')
    .replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * The forms a reflecting server sends a secret back in, by label. Each must come back redacted
 * (HH-03 judges every one of them in outputs and errors).
 */
export function reflectedForms(v: string): Record<string, string> {
  const b64 = (s: string): string => Buffer.from(s, 'utf8').toString('base64');
  return {
    raw: v,
    lower: v.toLowerCase(),
    // What a server that reads header bytes as Latin-1 and writes UTF-8 (Node, WSGI) sends back.
    latin1: Buffer.from(v, 'utf8').toString('latin1'),
    encodeURIComponent: encodeURIComponent(v),
    urlencode: percent(v, '-_.', 'upper', '+'),
    rawurlencode: percent(v, '-_.~', 'upper'),
    lowerHex: percent(v, '-_.~', 'lower'),
    formUrlencoded: new URLSearchParams({ k: v }).toString().slice(2),
    base64: b64(v),
    base64url: Buffer.from(v, 'utf8').toString('base64url'),
    basic: b64(`user:${v}`),
    base64At1: b64(`x${v}`),
    json: JSON.stringify(v).slice(1, -1),
    phpJson: phpJson(v),
  };
}

/** The secret a request carries: `X-Api-Key`, else a bearer token (UTF-8 bytes read back from Latin-1). */
function secretOf(req: http.IncomingMessage): string {
  const key = req.headers['x-api-key'];
  const auth = req.headers.authorization;
  const raw = typeof key === 'string' ? key : typeof auth === 'string' ? auth.replace(/^Bearer /, '') : '';
  return Buffer.from(raw, 'latin1').toString('utf8');
}

/** What Node's http server can write in a header or status line (it writes them as UTF-8). */
const HEADER_SAFE = /^[\t\x20-\x7e\x80-\xff]*$/;

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * Handles `/hh03/...`; false for any other path. `otherOrigin` (like `https://attacker.example:443`)
 * is where `/hh03/bounce` sends the secret on.
 */
export function reflectRoute(req: http.IncomingMessage, res: http.ServerResponse, otherOrigin: string): boolean {
  const u = new URL(req.url ?? '/', 'http://x');
  if (!u.pathname.startsWith('/hh03/')) return false;
  const v = secretOf(req);
  const forms = reflectedForms(v);
  switch (u.pathname) {
    case '/hh03/forms': {
      // Body, header values, a header name, the status text and a Location that is not followed.
      res.statusCode = 201;
      if (HEADER_SAFE.test(v)) res.statusMessage = v;
      res.setHeader('location', `/items/${forms.encodeURIComponent}`);
      if (HEADER_SAFE.test(v)) res.setHeader('x-echo', v);
      res.setHeader('x-echo-base64', forms.base64);
      if (TOKEN.test(v)) res.setHeader(`x-k-${v}`, '1');
      res.setHeader('content-type', 'text/plain; charset=utf-8');
      res.end(
        `${Object.entries(forms)
          .map(([k, f]) => `${k}=${f}`)
          .join('\n')}\nheaders=${JSON.stringify(req.headers)}\n`,
      );
      return true;
    }
    case '/hh03/json': {
      // PHP's json_encode escapes `/` and non-ASCII: the raw value is not in the body, only in what json_var decodes.
      const body = Object.entries(forms).map(([k, f]) => `"${k}":"${phpJson(f)}"`);
      res.setHeader('content-type', 'application/json');
      res.end(`{${body.join(',')}}`);
      return true;
    }
    case '/hh03/bounce':
      // Reflects the header into a redirect to another origin.
      res.statusCode = 302;
      res.setHeader('location', `${otherOrigin}/hh03/landing?k=${forms.encodeURIComponent}`);
      res.end(`moved: ${v}`);
      return true;
    case '/hh03/open': {
      // An open redirector that passes the rest of the query on.
      const to = u.searchParams.get('to') ?? '/';
      u.searchParams.delete('to');
      const rest = u.searchParams.toString();
      res.statusCode = 302;
      res.setHeader('location', rest ? `${to}${to.includes('?') ? '&' : '?'}${rest}` : to);
      res.end();
      return true;
    }
    case '/hh03/landing':
      res.setHeader('content-type', 'text/plain; charset=utf-8');
      res.end(`landing ${req.url} ${safeDecode(u.search)}`);
      return true;
    default:
      res.statusCode = 404;
      res.end('no such hh03 route');
      return true;
  }
}
