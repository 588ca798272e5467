/** src/http: the body read with a limit, the failure guard and the answers every server of ours sends. */
import { Agent, createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { readBody, readBytesOrRefuse } from '../../src/http/body.js';
import { guarded, type Handler } from '../../src/http/handler.js';
import { esc } from '../../src/http/html.js';
import { PAGE_CSP } from '../../src/http/csp.js';
import { sendJson, sendPage, seeOther } from '../../src/http/send.js';
import { http } from '../site/support/http.js';

let server: Server | undefined;
afterEach(async () => {
  const s = server;
  server = undefined;
  if (s) await new Promise<void>((ok) => s.close(() => ok()));
});

async function serve(handle: Handler): Promise<string> {
  const s = (server = createServer(guarded(handle)));
  await new Promise<void>((ok) => s.listen(0, '127.0.0.1', () => ok()));
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
}

describe('src/http', () => {
  it('reads a body up to its limit; past it, refuses with 413 and closes the connection', async () => {
    let refused = 0;
    const url = await serve(async (req, res) => {
      const body = await readBytesOrRefuse(req, res, 10, () => {
        refused++;
        sendJson(res, 413, { error: 'too large' });
      });
      if (body !== undefined) sendJson(res, 200, { got: body.toString('utf8') });
    });
    const ok = await http(url, { method: 'POST', body: '0123456789' });
    expect([ok.status, JSON.parse(ok.body)]).toEqual([200, { got: '0123456789' }]);
    const big = await http(url, { method: 'POST', body: '0123456789x' });
    expect(big.status).toBe(413);
    expect(big.headers.connection).toBe('close');
    expect(refused).toBe(1);
  });

  it('a request framed without a body reads as empty, a chunked one whole; a kept-alive connection serves both', async () => {
    const url = await serve(async (req, res) => {
      const body = await readBytesOrRefuse(req, res, 100, () => sendJson(res, 413, {}));
      if (body !== undefined) sendJson(res, 200, { got: body.toString('utf8') });
    });
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const ask = (method: string, headers: Record<string, string>, chunks: string[]) =>
      new Promise<{ got: string; socket: unknown }>((done, fail) => {
        const req = request(url, { method, headers, agent }, (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString()));
          res.on('end', () => done({ got: (JSON.parse(text) as { got: string }).got, socket: req.socket }));
        });
        req.on('error', fail);
        for (const c of chunks) req.write(c);
        req.end();
      });
    try {
      const get = await ask('GET', {}, []);
      const chunked = await ask('POST', { 'transfer-encoding': 'chunked' }, ['01', '23', '45']);
      const sized = await ask('POST', { 'content-length': '3' }, ['abc']);
      const empty = await ask('POST', { 'content-length': '0' }, []);
      expect([get.got, chunked.got, sized.got, empty.got]).toEqual(['', '012345', 'abc', '']);
      // The unread (empty) stream of the GET did not cost the connection.
      expect(new Set([get.socket, chunked.socket, sized.socket, empty.socket]).size).toBe(1);
    } finally {
      agent.destroy();
    }
  });

  it('a handler that throws answers 500 with its message; an unrelated failure of the read is not a 413', async () => {
    const url = await serve(async (req) => {
      await readBody(req, 4);
    });
    const r = await http(url, { method: 'POST', body: 'too long' });
    expect(r.status).toBe(500);
    expect(JSON.parse(r.body)).toEqual({ error: 'the body is larger than 4 bytes' });
    expect(r.headers['x-content-type-options']).toBe('nosniff');
  });

  it('pages go under PAGE_CSP, a form post goes on with 303, text is escaped for HTML', async () => {
    const url = await serve(async (req, res) => {
      if (req.url === '/page') return sendPage(res, 200, `<p>${esc(`<a href="x">'&'</a>`)}</p>`);
      seeOther(res, '/page');
    });
    const page = await http(`${url}/page`);
    expect(page.headers['content-security-policy']).toBe(PAGE_CSP);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.body).toBe('<p>&#60;a href=&#34;x&#34;&#62;&#39;&#38;&#39;&#60;/a&#62;</p>');
    const post = await http(`${url}/form`, { method: 'POST' });
    expect([post.status, post.headers.location]).toEqual([303, '/page']);
  });
});
