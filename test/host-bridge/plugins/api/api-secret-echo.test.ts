/**
 * HH-03 with real servers: an HTTPS and an HTTP server on 127.0.0.2 that send a request's
 * secret back on purpose (src/security/host/reflect.ts: request headers echoed in the body
 * raw, URL-encoded, base64, Basic, JSON-escaped; in header values and names; in a Location
 * read through resp_header_var; into a redirect to another origin; an open redirector that
 * passes the query on). Through the real engine, bridge and EgressGuard, every form must come
 * back as `[secret:NAME redacted]`, and the secret must reach no other origin and never
 * travel over plain http.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EgressGuard } from '../../../../src/host-adapters/egress/index.js';
import type { SecretRecord, HostResolver } from '../../../../src/host-api/host.js';
import { TemplateError } from '../../../../src/errors.js';
import { reflectRoute, reflectedForms } from '../../../../src/security/host/reflect.js';
import { CERT, mapResolver, PUBLIC_IP } from '../../../support/egress-servers.js';
import { testEngine } from '../../../support/engine.js';

const KEY = readFileSync(new URL('../../../fixtures/tls/test-key.pem', import.meta.url));
const TOKEN = 'tok-Value-0123456789abcdef';
const PASSWORD = 'Pw/+= &?"\\é~*\'()-0123456789';
const SECRETS: Record<string, SecretRecord> = {
  TOKEN: { value: TOKEN, hosts: ['public.test'] },
  PASSWORD: { value: PASSWORD, hosts: ['https://public.test'] },
};

interface Seen {
  tls: boolean;
  host: string;
  url: string;
  text: string;
}
const seen: Seen[] = [];
const servers: (http.Server | https.Server)[] = [];
let ports = { http: 0, https: 0 };
let guard: EgressGuard;

async function listen(s: http.Server | https.Server): Promise<number> {
  servers.push(s);
  await new Promise<void>((resolve) => s.listen(0, PUBLIC_IP, resolve));
  return (s.address() as AddressInfo).port;
}

function handler(tls: boolean) {
  return (req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const headers = Object.entries(req.headers).map(
        ([k, v]) => `${k}: ${Buffer.from(String(v), 'latin1').toString('utf8')}`,
      );
      let decoded = req.url ?? '';
      try {
        decoded = decodeURIComponent(decoded.replace(/\+/g, ' '));
      } catch {
        // the raw URL is checked too
      }
      seen.push({
        tls,
        host: req.headers.host ?? '',
        url: req.url ?? '',
        text: [req.url, decoded, ...headers, Buffer.concat(chunks).toString()].join('\n'),
      });
      if (!reflectRoute(req, res, `https://other.test:${ports.https}`)) {
        res.statusCode = 404;
        res.end();
      }
    });
  };
}

beforeAll(async () => {
  ports = {
    http: await listen(http.createServer(handler(false))),
    https: await listen(https.createServer({ cert: CERT, key: KEY }, handler(true))),
  };
  guard = new EgressGuard(
    { allowedPorts: [ports.http, ports.https], treatAsPublic: [PUBLIC_IP], timeoutMs: 10_000 },
    mapResolver({ 'public.test': [PUBLIC_IP], 'other.test': [PUBLIC_IP] }),
    { ca: CERT },
  );
});
afterAll(async () => {
  await guard.close();
  for (const s of servers) s.closeAllConnections();
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
});

const host: HostResolver = ({ tenant }) => ({
  http: { fetch: (req) => guard.fetch(req) },
  secrets: {
    get: async (name) =>
      tenant === 'default' && Object.prototype.hasOwnProperty.call(SECRETS, name) ? SECRETS[name]! : null,
  },
});
const engine = testEngine({ host });

const secure = (path: string): string => `https://public.test:${ports.https}${path}`;
const other = (path: string): string => `https://other.test:${ports.https}${path}`;

/** Sends secret `key` in `header` ("X-Api-Key: ", "Authorization: Bearer ") and prints status, body, headers. */
function viaHeader(key: string, header: string, extra = ''): string {
  return `{secret var=t key="${key}"}{append var=hd value="${header}\`$t\`"}{api endpoint=$u headers=$hd var=r resp_header_var=rh http_code_var=c${extra}}{$c}|{$r}|{foreach from=$rh key=k item=v}{$k}: {$v}\n{/foreach}`;
}

async function render(t: string, u: string): Promise<string> {
  return (await engine.render(t, { vars: { u } })).output;
}

async function refused(t: string, u: string): Promise<TemplateError> {
  try {
    await render(t, u);
  } catch (e) {
    expect(e).toBeInstanceOf(TemplateError);
    return e as TemplateError;
  }
  throw new Error('expected the render to fail');
}

/** No form of either secret in `text` (forms under 8 characters would match by chance). */
function expectNoForm(text: string): void {
  for (const v of [TOKEN, PASSWORD]) {
    for (const [label, form] of Object.entries(reflectedForms(v)))
      if (form.length >= 8) expect(text, `${label} form of ${JSON.stringify(v)}`).not.toContain(form);
  }
}

describe('{api}: a secret echoed by the host it was sent to comes back redacted', () => {
  it('every form in the body, header values, a header name and a Location read through resp_header_var', async () => {
    for (const [key, header] of [
      ['TOKEN', 'X-Api-Key: '],
      ['PASSWORD', 'Authorization: Bearer '],
    ] as const) {
      const before = seen.length;
      const out = await render(viaHeader(key, header), secure('/hh03/forms'));
      expect(
        seen.slice(before).some((s) => s.tls && s.text.includes(SECRETS[key]!.value)),
        'the host received the secret',
      ).toBe(true);
      expectNoForm(out);
      // Both values end in these digits: no echo of either is left anywhere, whatever its escaping.
      expect(out).not.toContain('0123456789');
      const body = out.split('|')[1]!;
      // Each line of the echo names one form; each of those lines ends in the marker.
      for (const line of body
        .split('\n')
        .filter((l) =>
          /^(raw|lower|encodeURIComponent|urlencode|rawurlencode|lowerHex|formUrlencoded|json|phpJson)=/.test(l),
        )) {
        expect(line, line).toMatch(new RegExp(`=\\[secret:${key} redacted\\]$`));
      }
      expect(out).toMatch(new RegExp(`location: /items/\\[secret:${key} redacted\\]`));
      expect(out).toMatch(new RegExp(`x-echo: \\[secret:${key} redacted\\]`));
      if (key === 'TOKEN') expect(out).toContain(`x-k-[secret:${key} redacted]: 1`);
    }
  });

  it('PHP-style JSON (escaped slashes, \\u escapes) through var and json_var', async () => {
    const out = await render(
      '{secret var=t key="PASSWORD"}{append var=hd value="X-Api-Key: `$t`"}{api endpoint=$u headers=$hd var=r json_var=j}{$r}|{foreach from=$j key=k item=v}{$k}={$v}\n{/foreach}',
      secure('/hh03/json'),
    );
    expectNoForm(out);
    expect(out).toContain('raw=[secret:PASSWORD redacted]');
    expect(out).toContain('"phpJson":"[secret:PASSWORD redacted]"');
  });

  it('a Location that reflects the secret towards another origin is not followed: the 302 comes back, redacted', async () => {
    const before = seen.length;
    const out = await render(viaHeader('PASSWORD', 'X-Api-Key: '), secure('/hh03/bounce'));
    expect(out.startsWith('302|moved: [secret:PASSWORD redacted]|')).toBe(true);
    expect(out).toContain(`location: ${other('/hh03/landing?k=')}[secret:PASSWORD redacted]`);
    expectNoForm(out);
    expect(seen.slice(before).map((s) => s.host)).toEqual([`public.test:${ports.https}`]);
  });

  it('a secret in the query string is refused (query and queries), so an open redirector has none to pass on', async () => {
    const before = seen.length;
    const open = secure(`/hh03/open?to=${encodeURIComponent(other('/hh03/landing'))}`);
    for (const t of [
      '{secret var=t key="TOKEN"}{api endpoint=$u query="k=`$t`" var=r}{$r}',
      '{secret var=t key="PASSWORD"}{assign_array var=q keys="k" values=$t}{api endpoint=$u queries=$q var=r}{$r}',
    ]) {
      const e = await refused(t, open);
      expect(e.code).toBe('E_SECRET_DENIED');
      expectNoForm(e.message);
    }
    expect(seen.length).toBe(before);
  });

  it('a secret never goes over plain http to a host whose record does not name http://', async () => {
    const before = seen.length;
    for (const [key, header] of [
      ['TOKEN', 'X-Api-Key: '],
      ['PASSWORD', 'Authorization: Bearer '],
    ] as const) {
      const e = await refused(viaHeader(key, header), `http://public.test:${ports.http}/hh03/forms`);
      expect(e.code).toBe('E_SECRET_DENIED');
    }
    expect(seen.length).toBe(before);
  });

  it('a request that carries a secret may not ask for a byte range (a slice of an echo)', async () => {
    const before = seen.length;
    const t =
      '{secret var=t key="TOKEN"}{append var=hd value="X-Api-Key: `$t`"}{append var=hd value="Range: bytes=5-9"}{api endpoint=$u headers=$hd var=r}{$r}';
    expect((await refused(t, secure('/hh03/forms'))).code).toBe('E_SECRET_DENIED');
    expect(seen.length).toBe(before);
    // Without a secret a range is the server's business.
    expect(
      await render(
        '{append var=hd value="Range: bytes=5-9"}{api endpoint=$u headers=$hd http_code_var=c}{$c}',
        secure('/hh03/forms'),
      ),
    ).toBe('201');
  });

  it('nothing any attack sent reached another origin or plain http', () => {
    for (const s of seen) {
      if (s.tls && s.host.startsWith('public.test')) continue;
      for (const v of [TOKEN, PASSWORD]) expect(s.text, `${s.host} ${s.url}`).not.toContain(v);
    }
  });
});
