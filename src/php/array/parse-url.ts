/**
 * parse_url(), a transcription of php_url_parse_ex2 (ext/standard/url.c) with its quirks:
 * "a.com:80" is a host and port, "mailto:x" a scheme and path, a port of 0 lets a later
 * ":port" be read, control characters become "_".
 */
import { PhpArray, type Value } from '../../value/value.js';
import { PhpTypeError } from '../../value/convert.js';
import { replaceEach } from '../../value/replace-each.js';

interface Url {
  scheme?: string;
  host?: string;
  port?: number;
  user?: string;
  pass?: string;
  path?: string;
  query?: string;
  fragment?: string;
}

const clean = (s: string) => replaceEach(s, /[\x00-\x1f\x7f]/g, () => '_', 'parse_url');
const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';
const isSchemeChar = (c: string) => /^[A-Za-z0-9+.-]$/.test(c);

/** Index of the first of `chars` in str[s, e), or e. */
function cspn(str: string, s: number, e: number, chars: string): number {
  for (let i = s; i < e; i++) if (chars.includes(str[i])) return i;
  return e;
}

function readPort(digits: string): number | null {
  const port = parseInt(digits, 10);
  return digits !== '' && port >= 0 && port <= 65535 ? port : null;
}

export function parseUrlParts(str: string): Url | null {
  const ret: Url = {};
  const ue = str.length;
  let s = 0;
  let e = str.indexOf(':');
  let stage: 'port' | 'host' | 'path' | 'authority';

  if (e > 0) {
    let valid = true;
    for (let p = 0; p < e; p++) {
      if (!isSchemeChar(str[p])) {
        valid = false;
        break;
      }
    }
    if (!valid) {
      if (e + 1 < ue && e < cspn(str, s, ue, '?#')) stage = 'port';
      else if (s + 1 < ue && str[s] === '/' && str[s + 1] === '/') {
        s += 2;
        stage = 'host';
      } else stage = 'path';
    } else if (e + 1 === ue) {
      ret.scheme = clean(str.slice(s, e));
      return ret;
    } else if (str[e + 1] !== '/') {
      let p = e + 1;
      while (p < ue && isDigit(str[p])) p++;
      if ((p === ue || str[p] === '/') && p - e < 7) stage = 'port';
      else {
        ret.scheme = clean(str.slice(s, e));
        s = e + 1;
        stage = 'path';
      }
    } else {
      ret.scheme = clean(str.slice(s, e));
      if (e + 2 < ue && str[e + 2] === '/') {
        s = e + 3;
        stage = 'host';
        if (ret.scheme.toLowerCase() === 'file' && e + 3 < ue && str[e + 3] === '/') {
          if (e + 5 < ue && str[e + 5] === ':') s = e + 4;
          stage = 'path';
        }
      } else {
        s = e + 1;
        stage = 'path';
      }
    }
  } else if (e === 0) {
    stage = 'port';
  } else if (s + 1 < ue && str[s] === '/' && str[s + 1] === '/') {
    s += 2;
    stage = 'host';
  } else {
    stage = 'path';
  }

  if (stage === 'port') {
    const p = e + 1;
    let pp = p;
    while (pp < ue && pp - p < 6 && isDigit(str[pp])) pp++;
    if (pp - p > 0 && pp - p < 6 && (pp === ue || str[pp] === '/')) {
      const port = readPort(str.slice(p, pp));
      if (port === null) return null;
      ret.port = port;
      if (s + 1 < ue && str[s] === '/' && str[s + 1] === '/') s += 2;
      stage = 'host';
    } else if (p === pp && pp === ue) {
      return null;
    } else if (s + 1 < ue && str[s] === '/' && str[s + 1] === '/') {
      s += 2;
      stage = 'host';
    } else {
      stage = 'path';
    }
  }

  if (stage === 'host') {
    e = cspn(str, s, ue, '/?#');
    const at = e > s ? str.lastIndexOf('@', e - 1) : -1;
    if (at >= s) {
      const colon = str.indexOf(':', s);
      if (colon >= 0 && colon < at) {
        ret.user = clean(str.slice(s, colon));
        ret.pass = clean(str.slice(colon + 1, at));
      } else {
        ret.user = clean(str.slice(s, at));
      }
      s = at + 1;
    }
    let p: number;
    if (s < ue && str[s] === '[' && str[e - 1] === ']') p = -1;
    else {
      p = e > s ? str.lastIndexOf(':', e - 1) : -1;
      if (p < s) p = -1;
    }
    if (p >= 0) {
      if (!ret.port) {
        p++;
        if (e - p > 5) return null;
        if (e - p > 0) {
          const port = readPort(str.slice(p, e));
          if (port === null) return null;
          ret.port = port;
        }
        p--;
      }
    } else {
      p = e;
    }
    if (p - s < 1) return null;
    ret.host = clean(str.slice(s, p));
    if (e === ue) return ret;
    s = e;
  }

  // just_path
  e = ue;
  const hash = str.indexOf('#', s);
  if (hash >= 0) {
    ret.fragment = hash + 1 < e ? clean(str.slice(hash + 1, e)) : '';
    e = hash;
  }
  const q = str.indexOf('?', s);
  if (q >= 0 && q < e) {
    ret.query = q + 1 < e ? clean(str.slice(q + 1, e)) : '';
    e = q;
  }
  if (s < e || s === ue) ret.path = clean(str.slice(s, e));
  return ret;
}

const ORDER = ['scheme', 'host', 'port', 'user', 'pass', 'path', 'query', 'fragment'] as const;

/** parse_url($url, $component): false for a URL PHP rejects; null for a missing component. */
export function parseUrl(url: string, component = -1): Value {
  const r = parseUrlParts(url);
  if (r === null) return false;
  if (component > -1) {
    const name = ORDER[component];
    if (name === undefined) {
      throw new PhpTypeError(
        `parse_url(): Argument #2 ($component) must be a valid URL component identifier, ${component} given`,
      );
    }
    return r[name] ?? null;
  }
  const out = PhpArray.empty();
  for (const name of ORDER) if (r[name] !== undefined) out.set(name, r[name]!);
  return out;
}
