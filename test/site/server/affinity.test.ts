/**
 * Site affinity, in process (src/site/server/affinity.ts, request-head.ts): the site a first head
 * names, the owner of a site among the live slots, reading a head within its bounds, and the
 * front handing connections to servers that take them (listen.ts `connections`) with the bytes it
 * read. The same across real processes: test/cli/serve-affinity.test.ts.
 */
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  bySite,
  listenFront,
  ownerOf,
  type Front,
  type LiveChild,
  type RouteKey,
} from '../../../src/site/server/affinity.js';
import { listen, type ServeServer } from '../../../src/site/server/listen.js';
import { readHead, siteOfHead, startReading } from '../../../src/site/server/request-head.js';

const head = (text: string) => Buffer.from(text.replace(/\n/g, '\r\n'), 'latin1');

describe('siteOfHead', () => {
  it('reads the site from a KEY.localhost Host first, then from a /sites/KEY/ path', () => {
    expect(siteOfHead(head('GET /rcms-api/1/news HTTP/1.1\nHost: alpha.localhost:8080\n\n'))).toBe('alpha');
    expect(siteOfHead(head('GET / HTTP/1.1\nUser-Agent: x\nHOST:  Beta-2.LocalHost \n\n'))).toBe('beta-2');
    expect(siteOfHead(head('GET /sites/gamma/rcms-api/1/me?x=1 HTTP/1.1\nHost: 127.0.0.1:8080\n\n'))).toBe('gamma');
    expect(siteOfHead(head('GET /sites/gamma HTTP/1.1\nHost: 127.0.0.1\n\n'))).toBe('gamma');
    // The Host wins, as in the app.
    expect(siteOfHead(head('GET /sites/gamma/ HTTP/1.1\nHost: delta.localhost\n\n'))).toBe('delta');
    // A head cut short still names its site when the line is there.
    expect(siteOfHead(head('GET /sites/epsilon/x HTTP/1.1\nHost: 127.0.0.1\nX-Long: aaaa'))).toBe('epsilon');
  });

  it("names no site for the server's own paths, another host, a header named like Host, or bytes that are not HTTP", () => {
    for (const text of [
      'GET /healthz HTTP/1.1\nHost: 127.0.0.1\n\n',
      'GET /metrics HTTP/1.1\n\n',
      'GET / HTTP/1.1\nHost: example.com\n\n',
      'GET /sitesx/alpha/ HTTP/1.1\nHost: 127.0.0.1\n\n',
      'GET / HTTP/1.1\nX-Host: alpha.localhost\nHostname: beta.localhost\n\n',
      'GET / HTTP/1.1\nHost: a.b.localhost\n\n',
      '\u0016\u0003\u0001\u0002\u0000\u0001',
      '',
    ])
      expect(siteOfHead(head(text)), JSON.stringify(text)).toBeUndefined();
  });
});

describe('ownerOf', () => {
  const keys = Array.from({ length: 2000 }, (_, i) => `site-${i}`);

  it('spreads sites evenly and gives each one owner, the same every time', () => {
    const owners = keys.map((k) => ownerOf(k, [0, 1]));
    const first = owners.filter((o) => o === 0).length;
    expect(first).toBeGreaterThan(900);
    expect(first).toBeLessThan(1100);
    expect(keys.map((k) => ownerOf(k, [0, 1]))).toEqual(owners);
    const four = keys.map((k) => ownerOf(k, [0, 1, 2, 3]));
    for (let slot = 0; slot < 4; slot++) expect(four.filter((o) => o === slot).length).toBeGreaterThan(400);
  });

  it('a slot gone moves only its own sites, over the others; back, they return', () => {
    const all = [0, 1, 2, 3];
    const before = keys.map((k) => all[ownerOf(k, all)]);
    const without2 = [0, 1, 3];
    const during = keys.map((k) => without2[ownerOf(k, without2)]);
    const moved = keys.filter((_, i) => before[i] !== during[i]);
    expect(moved.length).toBe(before.filter((o) => o === 2).length);
    // They spread over the three left, not onto one.
    for (const slot of without2)
      expect(moved.filter((k) => during[keys.indexOf(k)] === slot).length).toBeGreaterThan(100);
    expect(keys.map((k) => all[ownerOf(k, all)])).toEqual(before);
  });
});

/** A client socket to `port` that has written `text`. */
function client(port: number, text = ''): Promise<Socket> {
  return new Promise((ok) => {
    const s = connect(port, '127.0.0.1', () => {
      if (text) s.write(text);
      ok(s);
    });
  });
}

/** Everything the server sends until it closes the connection. */
function received(s: Socket): Promise<string> {
  return new Promise((ok) => {
    let out = '';
    s.on('data', (d) => (out += d.toString('latin1')));
    s.on('close', () => ok(out));
    s.on('error', () => {});
  });
}

describe('readHead', () => {
  it('ends at the blank line even across reads, and leaves what comes later in the kernel', async () => {
    let accepted: (s: Socket) => void = () => {};
    const sockets = new Promise<Socket>((r) => (accepted = r));
    const server = (await import('node:net')).createServer({ pauseOnConnect: true }, accepted);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    const c = await client(port, 'GET /sites/a/ HTTP/1.1\r\nHost: x\r\n\r');
    const socket = await sockets;
    const read = readHead(socket);
    await new Promise((r) => setTimeout(r, 50));
    c.write('\nBODY');
    const r = await read;
    expect(r.kind).toBe('head');
    expect(r.kind !== 'closed' && r.bytes.toString('latin1')).toMatch(
      /^GET \/sites\/a\/ HTTP\/1\.1\r\nHost: x\r\n\r\n(BODY)?$/,
    );
    const after = r.kind !== 'closed' && r.bytes.toString('latin1').endsWith('BODY') ? '' : 'BODY';
    c.write('MORE');
    // Not read here (the wait shows that nothing happens): the socket stopped reading.
    await new Promise((r) => setTimeout(r, 100));
    expect(socket.readableLength).toBe(0);
    // Whoever takes the socket next reads it.
    let rest = '';
    socket.on('data', (d: Buffer) => (rest += d.toString('latin1')));
    startReading(socket);
    await new Promise((r) => setTimeout(r, 100));
    expect(rest).toBe(`${after}MORE`);
    c.destroy();
    socket.destroy();
    server.close();
  });
});

describe('listenFront', () => {
  const fronts: Front[] = [];
  const servers: ServeServer[] = [];
  afterEach(async () => {
    for (const f of fronts.splice(0)) f.close();
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });

  /** Two servers that take connections from the front (as two children would), each answering its name. */
  async function twoChildren(limits?: { maxBytes: number; timeoutMs: number }, routeKey: RouteKey = bySite) {
    const up = new Set([0, 1]);
    const children: LiveChild[] = [];
    for (const slot of [0, 1]) {
      let accept: (socket: Socket, bytes: Buffer) => void = () => {};
      const s = await listen(
        async (req, res) => {
          let body = '';
          for await (const chunk of req) body += chunk;
          res.end(`child ${slot} ${req.method} ${req.url} ${body}`);
        },
        { host: '127.0.0.1', port: 0, connections: (a) => (accept = a) },
      );
      servers.push(s);
      children.push({ slot, hand: (socket, bytes) => accept(socket, bytes) });
    }
    const front = await listenFront(
      '127.0.0.1',
      0,
      () => children.filter((c) => up.has(c.slot)),
      routeKey,
      () => {},
      limits,
    );
    fronts.push(front);
    return { front, up, servers: servers.slice(-2), url: `http://127.0.0.1:${front.port}` };
  }

  it("hands each site's connections to its owner, the rest in turn; a body that follows the head arrives", async () => {
    const { url } = await twoChildren();
    const served = async (path: string, init?: RequestInit) =>
      (await (await fetch(`${url}${path}`, { ...init, headers: { connection: 'close' } })).text()).split(' ')[1];
    for (const key of ['alpha', 'beta', 'gamma', 'delta']) {
      const owner = String(ownerOf(key, [0, 1]));
      for (let i = 0; i < 3; i++) expect(await served(`/sites/${key}/x`)).toBe(owner);
    }
    const turns = [await served('/healthz-not'), await served('/healthz-not')];
    expect(turns.sort()).toEqual(['0', '1']);
    const r = await fetch(`${url}/sites/alpha/post`, { method: 'POST', body: 'x'.repeat(100_000) });
    expect(await r.text()).toBe(`child ${ownerOf('alpha', [0, 1])} POST /sites/alpha/post ${'x'.repeat(100_000)}`);
  });

  it("with a route key, a group's sites go to the group's owner, whatever their own keys' owners", async () => {
    // Sites whose own keys two children own, in one group: the group's key decides (D343).
    const keys = Array.from({ length: 40 }, (_, i) => `s${i}`);
    const apart = [keys.find((k) => ownerOf(k, [0, 1]) === 0)!, keys.find((k) => ownerOf(k, [0, 1]) === 1)!];
    const group = '\u0001acme';
    const routeKey: RouteKey = (site) => (apart.includes(site) ? group : site);
    const { url } = await twoChildren(undefined, routeKey);
    const served = async (site: string) =>
      (await (await fetch(`${url}/sites/${site}/x`, { headers: { connection: 'close' } })).text()).split(' ')[1];
    const owner = String(ownerOf(group, [0, 1]));
    expect(await served(apart[0]!)).toBe(owner);
    expect(await served(apart[1]!)).toBe(owner);
    // A site in no group keeps its own owner.
    const alone = keys.find((k) => !apart.includes(k))!;
    expect(await served(alone)).toBe(String(ownerOf(alone, [0, 1])));
  });

  it("a slot that is down has its sites served by the other; a keep-alive connection's later requests stay with its child", async () => {
    const { front, up } = await twoChildren();
    const key = ['alpha', 'beta', 'gamma', 'delta'].find((k) => ownerOf(k, [0, 1]) === 1)!;
    const other = ['alpha', 'beta', 'gamma', 'delta'].find((k) => ownerOf(k, [0, 1]) === 0)!;
    up.delete(1);
    const c = await client(front.port, `GET /sites/${key}/a HTTP/1.1\r\nHost: x\r\n\r\n`);
    const got = received(c);
    await new Promise((r) => setTimeout(r, 100));
    up.add(1);
    // The same connection, another site: the child it went to serves it.
    c.write(`GET /sites/${other}/b HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    const text = await got;
    expect(text).toContain(`child 0 GET /sites/${key}/a`);
    expect(text).toContain(`child 0 GET /sites/${other}/b`);
  });

  it('a head too slow is answered 408, one too large goes to a child (which answers 431), no child up is 503', async () => {
    const { front, up } = await twoChildren({ maxBytes: 1024, timeoutMs: 200 });
    const slow = await client(front.port, 'GET /sites/alpha/ HTTP/1.1\r\nHost: x\r\n');
    expect(await received(slow)).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    const big = await client(front.port, `GET /sites/alpha/ HTTP/1.1\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`);
    expect(await received(big)).toMatch(/^HTTP\/1\.1 431 /);
    up.clear();
    const none = await client(front.port, 'GET / HTTP/1.1\r\n\r\n');
    expect(await received(none)).toMatch(/^HTTP\/1\.1 503 Service Unavailable\r\n(.*\r\n)*retry-after: 1\r\n/);
  });

  it('a server that takes connections drains them: the request in flight ends with connection: close, then it is closed', async () => {
    let started: () => void = () => {};
    const inHandler = new Promise<void>((r) => (started = r));
    let finish: () => void = () => {};
    const finished = new Promise<void>((r) => (finish = r));
    let accept: (socket: Socket, bytes: Buffer) => void = () => {};
    const s = await listen(
      async (req, res) => {
        if (req.url !== '/slow') return void res.end('at once');
        started();
        await finished;
        res.end('done');
      },
      { host: '127.0.0.1', port: 0, connections: (a) => (accept = a) },
    );
    servers.push(s);
    const front = await listenFront(
      '127.0.0.1',
      0,
      () => [{ slot: 0, hand: (socket, bytes) => accept(socket, bytes) }],
      bySite,
      () => {},
    );
    fronts.push(front);
    const idle = await client(front.port, 'GET /a HTTP/1.1\r\nHost: x\r\n\r\n');
    const idleClosed = received(idle);
    await new Promise((r) => idle.once('data', r));
    // A connection whose head has not come when the stop begins is closed: it sent no request.
    const early = await client(front.port, 'GET /b HTTP/1.1\r\n');
    const earlyClosed = received(early);
    const answer = fetch(`http://127.0.0.1:${front.port}/slow`);
    await inHandler;
    const drained = s.drain(10_000);
    front.close();
    finish();
    const r = await answer;
    expect(r.headers.get('connection')).toBe('close');
    expect(await r.text()).toBe('done');
    expect(await drained).toBe('drained');
    // The idle keep-alive connection got its answer and was closed by the drain.
    expect(await idleClosed).toMatch(/^HTTP\/1\.1 200 OK(.*\r\n)*\r\nat once$/);
    expect(await earlyClosed).toBe('');
  });
});
