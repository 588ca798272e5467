/**
 * The attacks session's `{api}` request shapes (docs/security.md NET-18..NET-21): what a template
 * can put in a request besides its URL's address. Request smuggling and proxy tricks need a
 * method or a header the client passes on as written; resource exhaustion needs a request the host
 * builds before any cap; resolver confusion needs a host name the URL parser and the resolver read
 * differently. Each form must be refused before a connection: the harness's allowed server
 * records every request it sees, and none may arrive.
 */
import { harnessHttp } from '../host/http.js';
import type { HarnessContext, Outcome, SecurityCase } from '../types.js';
import { allRefused, type Refusal } from './helpers.js';

const PROBE = '{api endpoint=$u method=$m headers=$h queries=$q status_var=s http_code_var=c}[{$s}/{$c}]';

interface Form {
  label: string;
  /** The template, when not PROBE (its vars are PROBE's and `s`). */
  template?: string;
  s?: string;
  /** The URL, given the allowed server's base (`http://api.example.com:PORT`). */
  url?: (base: string) => string;
  method?: string;
  headers?: unknown;
  queries?: unknown;
  codes: string[];
}

/** Renders each form against the allowed server: refused with its code, and the server saw nothing. */
function shapes(id: string, title: string, forms: Form[]): SecurityCase {
  return {
    id,
    category: 'NET',
    title,
    async run(h: HarnessContext): Promise<Outcome> {
      const s = harnessHttp();
      const base = `http://api.example.com:${s.port}`;
      const seen = s.seen.length;
      const refusals: Refusal[] = forms.map((f) => ({
        template: f.template ?? PROBE,
        codes: f.codes,
        label: f.label,
        opts: {
          vars: {
            u: f.url ? f.url(base) : `${base}/echo`,
            m: f.method ?? 'GET',
            h: f.headers ?? [],
            q: f.queries ?? [],
            s: f.s ?? '',
          },
        },
      }));
      const bad = await allRefused(h, refusals);
      if (bad) return bad;
      if (s.seen.length !== seen)
        return { status: 'escaped', detail: `the server saw ${s.seen.length - seen} request(s) of refused forms` };
      return { status: 'contained', detail: `${forms.length} forms refused before connecting` };
    },
  };
}

const header = (h: string): Form => ({ label: JSON.stringify(h), headers: [h], codes: ['E_BAD_HEADER'] });

export const NET_SHAPES: SecurityCase[] = [
  shapes(
    'NET-18',
    'methods that smuggle or tunnel: CR/LF in the method, CONNECT, TRACE, lower case',
    ['GET\r\nX-Injected: 1', 'GET / HTTP/1.1\r\nHost: internal', 'CONNECT', 'TRACE', 'OPTIONS', 'get', 'G\u0000ET'].map(
      (method) => ({ label: JSON.stringify(method), method, codes: ['E_BAD_ATTR', 'E_BAD_ATTRIBUTE'] }),
    ),
  ),
  shapes('NET-19', 'hop-by-hop, proxy and pseudo headers, and header names that are not tokens', [
    header('Transfer-Encoding: chunked'),
    header('Connection: Upgrade'),
    header('Upgrade: websocket'),
    header('Expect: 100-continue'),
    header('TE: trailers'),
    header('Keep-Alive: timeout=100000'),
    header('Proxy-Authorization: Basic eDp4'),
    header('Proxy-Connection: keep-alive'),
    header(':authority: internal'),
    header('X A: b'),
    header('X-A\u00e9: b'),
    header('X-A: a\u0000b'),
    header('X-A: a\rb'),
    { label: 'a header as a map', headers: { 'X-A': 'v', 0: 'Host: internal' }, codes: ['E_BAD_HEADER'] },
    { label: 'a header as a nested list', headers: [['Host: internal']], codes: ['E_BAD_HEADER'] },
  ]),
  shapes('NET-20', 'requests sized by the template: headers, query keys and URL length', [
    {
      label: '10,000 headers',
      headers: Array.from({ length: 10_000 }, (_, i) => `X-${i}: v`),
      codes: ['E_BAD_HEADER'],
    },
    { label: 'a header value of 1 MB', headers: [`X-A: ${'v'.repeat(1_000_000)}`], codes: ['E_BAD_HEADER'] },
    {
      label: '50,000 query keys',
      queries: Object.fromEntries(Array.from({ length: 50_000 }, (_, i) => [`k${i}`, 'v'])),
      codes: ['E_BAD_URL'],
    },
    // One explode in the isolate makes the list; encoding it took ~1 s of the embedder's thread
    // (D320). 300,000 values never leave the isolate (a host call carries at most 100,000, D321);
    // 50,000 reach the host, which counts them before it encodes any.
    ...[
      '{api endpoint=$u queries=$a status_var=s}',
      '{api_internal endpoint="/rcms-api/1/me" queries=$a status_var=s}',
    ].flatMap((tag) =>
      (
        [
          [300_000, 'E_BAD_ATTRIBUTE'],
          [50_000, 'E_BAD_URL'],
        ] as const
      ).map(([n, code]): Form => ({
        label: `${n.toLocaleString('en')} values by explode: ${tag.slice(0, 14)}`,
        template: `{assign var=a value=","|explode:$s}${tag}[{$s}]`,
        s: ','.repeat(n - 1),
        codes: [code],
      })),
    ),
    {
      label: 'a URL of 3 MB',
      url: (base) => `${base}/echo?${'a'.repeat(3_000_000)}`,
      codes: ['E_BAD_ATTRIBUTE', 'E_BAD_URL'],
    },
  ]),
  shapes(
    'NET-21',
    'host names the URL parser and a resolver may read differently',
    [
      `${'a'.repeat(64)}.example.com`,
      `${'a.'.repeat(200)}example.com`,
      '\u00ad.example.com',
      'exa\u200bmple.com',
      '[::1%25eth0]',
      'api.example.com%00.attacker.example',
      'api.example.com\\@internal.attacker.example',
    ].map((host) => ({
      label: JSON.stringify(host),
      url: () => `http://${host}/`,
      codes: ['E_BAD_URL', 'E_SSRF_DENIED'],
    })),
  ),
];
