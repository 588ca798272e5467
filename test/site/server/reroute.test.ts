/**
 * Per-request affinity, in process (src/site/server/reroute.ts, D238): a server that does not own
 * a request's site passes it, when it has no body, to the primary's port (here: the owner's
 * server itself), relays the answer, and serves it itself when that fails; the owner takes the
 * client's address from a mark with the right token only. Across real processes:
 * test/cli/serve-affinity.test.ts.
 */
import { request } from 'node:http';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ownerOf } from '../../../src/site/server/affinity.js';
import { listen, type ServeServer } from '../../../src/site/server/listen.js';
import {
  REROUTED_HEADER,
  remoteAddressOf,
  rerouter,
  type RelayedRequest,
  type RerouteOptions,
} from '../../../src/site/server/reroute.js';

const TOKEN = 'test-token';
/** `mine` is owned by slot 0 (the server `here`), `theirs` by slot 1 (the server `owner`). */
let mine = '';
let theirs = '';
beforeAll(() => {
  const keys = Array.from({ length: 20 }, (_, i) => `site${i}`);
  mine = keys.find((k) => ownerOf(k, [0, 1]) === 0)!;
  theirs = keys.find((k) => ownerOf(k, [0, 1]) === 1)!;
});

const servers: ServeServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** Resolves as each answer a server's handler wrote has closed, in order. */
let handlerClosed: Promise<void>[] = [];

/**
 * A server that answers who it is, the request's address as it takes it, and any mark it saw;
 * a path ending in /missing with 404, and the request id `NAME-id` as serve's access log would.
 */
async function server(name: string, reroute?: RerouteOptions): Promise<ServeServer> {
  const s = await listen(
    async (req, res) => {
      handlerClosed.push(new Promise((ok) => res.once('close', ok)));
      let body = '';
      for await (const chunk of req) body += String(chunk);
      if (req.url?.split('?')[0]!.endsWith('/missing')) res.statusCode = 404;
      res.setHeader('x-request-id', `${name}-id`);
      res.setHeader('x-served-by', name);
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ name, remote: remoteAddressOf(req), mark: req.headers[REROUTED_HEADER] ?? null, body }));
    },
    { host: '127.0.0.1', port: 0, ...(reroute ? { reroute: rerouter(reroute) } : {}) },
  );
  servers.push(s);
  return s;
}

/** The owner's server and one that passes its requests to it (as the primary would route them). */
async function pair(relayed?: (r: RelayedRequest) => void): Promise<{ here: ServeServer; owner: ServeServer }> {
  const owner = await server('owner', { token: TOKEN, host: '127.0.0.1', port: 1, owner: { slots: [0, 1], self: 1 } });
  const here = await server('here', {
    token: TOKEN,
    host: '127.0.0.1',
    port: owner.port,
    owner: { slots: [0, 1], self: 0 },
    ...(relayed ? { relayed } : {}),
  });
  return { here, owner };
}

type Reply = { status: number; headers: Record<string, unknown>; json: { name: string; remote: string; mark: null } };

function send(s: ServeServer, method: string, pathname: string, headers: Record<string, string> = {}, body = '') {
  return new Promise<Reply>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: s.port, method, path: pathname, headers }, (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () =>
        resolve({
          status: res.statusCode!,
          headers: res.headers,
          json: (text ? JSON.parse(text) : null) as Reply['json'],
        }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('rerouter', () => {
  it("passes a request for another server's site to it and relays its answer; serves its own sites", async () => {
    const { here } = await pair();
    const a = await send(here, 'GET', `/sites/${theirs}/x?y=1`);
    expect([a.status, a.headers['x-served-by'], a.json.mark, a.json.remote]).toEqual([200, 'owner', null, '127.0.0.1']);
    const byHost = await send(here, 'GET', '/x', { host: `${theirs}.localhost` });
    expect(byHost.headers['x-served-by']).toBe('owner');
    expect((await send(here, 'GET', `/sites/${mine}/x`)).headers['x-served-by']).toBe('here');
    expect((await send(here, 'GET', '/healthz')).json).toEqual({ alive: true });
    expect((await send(here, 'GET', '/other')).headers['x-served-by']).toBe('here');
    // HEAD: the owner's headers, no body.
    const head = await send(here, 'HEAD', `/sites/${theirs}/x`);
    expect([head.status, head.headers['x-served-by'], head.json]).toEqual([200, 'owner', null]);
  });

  it("routes by the route key: a site of a group this server owns is served here, whatever its own key's owner", async () => {
    const group = ['\u0001a', '\u0001b', '\u0001c', '\u0001d'].find((g) => ownerOf(g, [0, 1]) === 0)!;
    const owner = await server('owner');
    const here = await server('here', {
      token: TOKEN,
      host: '127.0.0.1',
      port: owner.port,
      owner: { slots: [0, 1], self: 0 },
      routeKey: (site) => (site === theirs ? group : site),
    });
    expect((await send(here, 'GET', `/sites/${theirs}/x`)).headers['x-served-by']).toBe('here');
    // A site outside the group still goes to its owner.
    const other = Array.from({ length: 40 }, (_, i) => `other${i}`).find((k) => ownerOf(k, [0, 1]) === 1)!;
    expect((await send(here, 'GET', `/sites/${other}/x`)).headers['x-served-by']).toBe('owner');
  });

  it('serves a request with a body or another method than GET/HEAD itself, and one its owner cannot be reached for', async () => {
    const { here, owner } = await pair();
    const post = await send(here, 'POST', `/sites/${theirs}/x`, { 'content-type': 'text/plain' }, 'payload');
    expect([post.headers['x-served-by'], (post.json as unknown as { body: string }).body]).toEqual(['here', 'payload']);
    // Without a body too: only GET and HEAD may be served again after a relay that failed.
    expect((await send(here, 'DELETE', `/sites/${theirs}/x`)).headers['x-served-by']).toBe('here');
    await owner.close();
    servers.splice(servers.indexOf(owner), 1);
    const a = await send(here, 'GET', `/sites/${theirs}/x`);
    expect([a.status, a.headers['x-served-by']]).toEqual([200, 'here']);
  });

  it('tells of each request it relayed, with the status and request id of the owner; not of one it served', async () => {
    const told: RelayedRequest[] = [];
    const { here, owner } = await pair((r) => told.push(r));
    const a = await send(here, 'GET', `/sites/${theirs}/missing?q=1`);
    expect([a.status, a.headers['x-served-by'], a.headers['x-request-id']]).toEqual([404, 'owner', 'owner-id']);
    await vi.waitFor(() => expect(told).toHaveLength(1));
    const r = told[0]!;
    expect([r.site, r.status, r.reqId, r.aborted, r.req.method, r.req.url]).toEqual([
      theirs,
      404,
      'owner-id',
      false,
      'GET',
      `/sites/${theirs}/missing?q=1`,
    ]);
    expect(r.ms).toBeGreaterThan(0);
    // Served here: its own site, a POST, and a GET whose owner cannot be reached.
    handlerClosed = [];
    await send(here, 'GET', `/sites/${mine}/x`);
    await send(here, 'POST', `/sites/${theirs}/x`, {}, 'body');
    await owner.close();
    servers.splice(servers.indexOf(owner), 1);
    expect((await send(here, 'GET', `/sites/${theirs}/x`)).headers['x-served-by']).toBe('here');
    // The relay listens for an answer's close before the handler does: once the handler heard it, so had the relay.
    await Promise.all(handlerClosed);
    expect(handlerClosed).toHaveLength(3);
    expect(told).toHaveLength(1);
  });

  it("takes the client's address from a mark with the token only, and never passes a marked request on", async () => {
    const { owner } = await pair();
    const marked = await send(owner, 'GET', `/sites/${mine}/x`, { [REROUTED_HEADER]: `${TOKEN} 203.0.113.9` });
    // Owned by `here`, but marked: served where it arrived, the mark taken off.
    expect([marked.headers['x-served-by'], marked.json.remote, marked.json.mark]).toEqual([
      'owner',
      '203.0.113.9',
      null,
    ]);
    const forged = await send(owner, 'GET', '/x', { [REROUTED_HEADER]: 'guess 203.0.113.9' });
    expect([forged.json.remote, forged.json.mark]).toEqual(['127.0.0.1', null]);
  });
});
