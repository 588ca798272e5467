/**
 * The server's drain (src/site/server/listen.ts), in process: a request in flight finishes with
 * `connection: close` while readiness says draining; what is left at the deadline is cut; the
 * endpoints win over the app's routes.
 */
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { listen } from '../../../src/site/server/listen.js';

describe('listen', () => {
  it('/healthz and /readyz answer ahead of the app; the app gets the rest', async () => {
    const s = await listen(async (_req, res) => void res.end('app'), { host: '127.0.0.1', port: 0 });
    try {
      expect(await (await fetch(`${s.url}/healthz`)).json()).toEqual({ alive: true });
      expect(await (await fetch(`${s.url}/readyz?x=1`)).json()).toEqual({ ready: true });
      expect(await (await fetch(`${s.url}/healthz/x`)).text()).toBe('app');
      expect(await (await fetch(`${s.url}/readyz`, { method: 'POST' })).text()).toBe('app');
    } finally {
      await s.close();
    }
  });

  it('drains: the slow request is answered with connection: close, readiness says draining, then the server is closed', async () => {
    let started: () => void = () => {};
    const inHandler = new Promise<void>((r) => (started = r));
    let finish: () => void = () => {};
    const finished = new Promise<void>((r) => (finish = r));
    const s = await listen(
      async (_req, res) => {
        started();
        // Slow until the test has begun the drain and sent a second request behind this one.
        await finished;
        res.end('slow done');
      },
      { host: '127.0.0.1', port: 0 },
    );
    const socket = connect(s.port, '127.0.0.1');
    let text = '';
    socket.on('data', (d) => (text += d));
    const ended = new Promise<void>((r) => socket.on('close', () => r()));
    socket.write('GET /slow HTTP/1.1\r\nHost: x\r\n\r\n');
    await inHandler;
    const drained = s.drain(10_000);
    expect(await s.readiness.probe()).toEqual({ ready: false, draining: true });
    await new Promise<void>((r) => socket.write('GET /readyz HTTP/1.1\r\nHost: x\r\n\r\n', () => r()));
    finish();
    expect(await drained).toBe('drained');
    await ended;
    const answers = text.split(/(?=HTTP\/1\.1 )/);
    expect(answers[0]).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(answers[0]).toMatch(/\r\nconnection: close\r\n/i);
    expect(answers[0]).toContain('slow done');
    // The request pipelined behind it is not taken: the connection closes after the answer that
    // said so, and an HTTP client sends it again on a new connection (to another node).
    expect(answers).toHaveLength(1);
    expect(s.server.listening).toBe(false);
  });

  it('cuts what is left at the deadline', async () => {
    let started: () => void = () => {};
    const inHandler = new Promise<void>((r) => (started = r));
    const s = await listen(
      async () => {
        started();
        return new Promise(() => {});
      },
      { host: '127.0.0.1', port: 0 },
    );
    const answer = fetch(`${s.url}/never`).then(
      () => 'answered',
      () => 'cut',
    );
    await inHandler;
    expect(await s.drain(100)).toBe('cut');
    expect(await answer).toBe('cut');
  });
});
