/**
 * /readyz's checks (src/site/server/readiness.ts) against real sockets: a Redis that answers PING,
 * an SMTP relay's greeting, a port nobody listens on, a server that never answers (the deadline),
 * a backend shared by two sites checked once, a hung check joined rather than repeated, and an
 * answer that names kinds, never addresses or site keys.
 */
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { Readiness } from '../../../src/site/server/readiness.js';
import type { SiteContext } from '../../../src/site/site-context.js';

const servers: Server[] = [];
const sockets: Socket[] = [];
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await Promise.all(servers.map((s) => new Promise((ok) => s.close(ok))));
});

async function tcp(onConnection: (s: Socket) => void): Promise<number> {
  const server = createServer((s) => {
    sockets.push(s);
    onConnection(s);
  });
  servers.push(server);
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return (server.address() as AddressInfo).port;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const port = (server.address() as AddressInfo).port;
  await new Promise((ok) => server.close(ok));
  return port;
}

/** A site as readiness sees it: its config's backends and its database handle. */
function site(
  config: { database?: string; batch_queue?: string; smtp?: { host: string; port: number; secure?: boolean } },
  dbGet: () => Promise<unknown> = async () => ({}),
): SiteContext {
  return {
    tenant: 'secret-tenant',
    dir: '/nonexistent',
    config: {
      site_key: 'secret-tenant',
      database: config.database ?? null,
      batch_queue: config.batch_queue ?? null,
      storage: { type: 'local' },
      mail: { smtp: config.smtp ? { starttls: 'never', secure: false, ...config.smtp } : undefined },
    },
    db: { get: dbGet },
  } as unknown as SiteContext;
}

describe('Readiness', () => {
  it('is ready with no backends (SQLite, local files), and says draining once a stop began', async () => {
    const r = new Readiness(() => [site({})]);
    expect(await r.probe()).toEqual({ ready: true });
    r.draining = true;
    expect(await r.probe()).toEqual({ ready: false, draining: true });
  });

  it('PINGs Redis (AUTH first when the URL has a password) and reads the SMTP greeting', async () => {
    const seen: string[] = [];
    const redis = await tcp((s) =>
      s.on('data', (d) => {
        seen.push(d.toString());
        s.write(d.toString().includes('AUTH') ? '+OK\r\n+PONG\r\n' : '+PONG\r\n');
      }),
    );
    const smtp = await tcp((s) => {
      s.write('220 relay ESMTP\r\n');
      s.on('data', () => s.end('221 bye\r\n'));
    });
    const r = new Readiness(() => [
      site({ batch_queue: `redis://127.0.0.1:${redis}`, smtp: { host: '127.0.0.1', port: smtp } }),
      site({ batch_queue: `redis://:pw@127.0.0.1:${redis}/0` }),
    ]);
    expect(await r.probe()).toEqual({ ready: true });
    expect(seen.join('')).toContain('*2\r\n$4\r\nAUTH\r\n$2\r\npw\r\n*1\r\n$4\r\nPING\r\n');
  });

  it('names what is down by kind, with a reason code and a hash id, no address or site key', async () => {
    const closed = await freePort();
    const busy = await tcp((s) => s.write('421 too busy\r\n'));
    const r = new Readiness(() => [
      site(
        {
          database: 'postgres://user:hunter2@db.example/x',
          batch_queue: `redis://127.0.0.1:${closed}`,
          smtp: { host: '127.0.0.1', port: busy },
        },
        async () => {
          throw Object.assign(new Error('password authentication failed for user "user"'), { code: '28P01' });
        },
      ),
    ]);
    const report = await r.probe();
    expect(report.ready).toBe(false);
    const down = (report as { down: { backend: string; id: string; reason: string }[] }).down;
    expect(down.map((d) => [d.backend, d.reason]).sort()).toEqual([
      ['batch_queue', 'ECONNREFUSED'],
      ['database', '28P01'],
      ['smtp', 'smtp_421'],
    ]);
    for (const d of down) expect(d.id).toMatch(/^[0-9a-f]{8}$/);
    const text = JSON.stringify(report);
    for (const secret of ['hunter2', 'user', 'db.example', 'secret-tenant', String(closed), '127.0.0.1'])
      expect(text).not.toContain(secret);
  });

  it('a backend that never answers is down at the deadline; the next probe joins the hung check, once per backend', async () => {
    let calls = 0;
    let release: () => void = () => {};
    const hung = () => {
      calls++;
      return calls === 1 ? new Promise((ok) => (release = () => ok({}))) : Promise.resolve({});
    };
    // Two sites on one database: one check.
    const url = 'postgres://h/db';
    const r = new Readiness(() => [site({ database: url }, hung), site({ database: url }, hung)], 200);
    // The deadline is the probe's own timer: fake time reaches it at once.
    vi.useFakeTimers();
    try {
      const probing = r.probe();
      await vi.advanceTimersByTimeAsync(199);
      let settled = false;
      void probing.then(() => (settled = true));
      await vi.advanceTimersByTimeAsync(0);
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      const first = await probing;
      expect(first).toMatchObject({ ready: false, down: [{ backend: 'database', reason: 'timeout' }] });
      expect((first as { down: unknown[] }).down).toHaveLength(1);
      const again = r.probe();
      await vi.advanceTimersByTimeAsync(200);
      await again;
      expect(calls).toBe(1);
      release();
      await vi.advanceTimersByTimeAsync(0);
      expect(await r.probe()).toEqual({ ready: true });
      expect(calls).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });
});
