/**
 * /readyz of `smartcage serve` against a real PostgreSQL that stops and starts again: 200 while
 * the site's database answers, 503 naming the database (and nothing of the tenant) while it is
 * stopped, 200 again once it is back. The server is a throwaway cluster of its own
 * (scripts/ci/postgres.sh), so the shared test database is never stopped; it runs where the site
 * tests' PostgreSQL does (SMARTCAGE_PG_URL set), and is reported skipped elsewhere.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initSite } from '../../src/site/init.js';
import { requireBuild, ROOT } from '../support/bin.js';
import { eventually, startServe, stopServe, type ServeProcess } from '../support/serve-process.js';

const PG = path.join(ROOT, 'scripts/ci/postgres.sh');
const d = process.env.SMARTCAGE_PG_URL ? describe : describe.skip;

d('serve /readyz and PostgreSQL', () => {
  const pgDir = mkdtempSync(path.join(tmpdir(), 'smartcage-readyz-pg-'));
  const siteDir = mkdtempSync(path.join(tmpdir(), 'smartcage-readyz-site-'));
  let port = 0;
  let url = '';
  let s: ServeProcess | undefined;

  beforeAll(async () => {
    requireBuild();
    const probe = createServer();
    await new Promise<void>((ok) => probe.listen(0, '127.0.0.1', ok));
    port = (probe.address() as AddressInfo).port;
    await new Promise((ok) => probe.close(ok));
    url = execFileSync(PG, ['start', pgDir, String(port)], { encoding: 'utf8' }).trim();
    await initSite(siteDir, { siteKey: 'readyz-tenant', database: url });
  }, 120_000);

  afterAll(async () => {
    if (s) await stopServe(s);
    execFileSync(PG, ['stop', pgDir]);
    rmSync(pgDir, { recursive: true, force: true });
    rmSync(siteDir, { recursive: true, force: true });
  }, 60_000);

  const readyz = async () => {
    const r = await fetch(`${s!.url}/readyz`);
    return {
      status: r.status,
      body: (await r.json()) as { ready: boolean; down?: { backend: string; id: string; reason: string }[] },
    };
  };

  it('is 200, then 503 naming the database while PostgreSQL is stopped, then 200 after it restarts', async () => {
    expect(JSON.parse(readFileSync(path.join(siteDir, 'site.json'), 'utf8')).database).toBe(url);
    s = await startServe(['--port', '0', '--site', siteDir, '--processes', '1'], { waitMs: 60_000 });
    expect(await readyz()).toEqual({ status: 200, body: { ready: true } });

    execFileSync(PG, ['stop', pgDir]);
    const down = await readyz();
    expect(down.status).toBe(503);
    expect(down.body.ready).toBe(false);
    expect(down.body.down).toHaveLength(1);
    expect(down.body.down![0]).toMatchObject({ backend: 'database' });
    expect(down.body.down![0]!.id).toMatch(/^[0-9a-f]{8}$/);
    const text = JSON.stringify(down.body);
    for (const secret of ['readyz-tenant', String(port), 'postgres', '127.0.0.1']) expect(text).not.toContain(secret);
    // /healthz is about the process, not its backends.
    expect((await fetch(`${s.url}/healthz`)).status).toBe(200);

    execFileSync(PG, ['resume', pgDir, String(port)]);
    expect(await eventually(async () => (await readyz()).status === 200, 20_000)).toBe(true);
  }, 180_000);
});
