/**
 * Several nodes, one truth, for the API cache (D235): two `smartcage serve` processes on one
 * PostgreSQL site; each keeps its own answers, and a write of content through one makes the
 * other's next read a miss with the new content (within the version's read interval, 100 ms).
 * Runs where the site tests' PostgreSQL does (SMARTCAGE_PG_URL); reported skipped elsewhere.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initSite } from '../../../src/site/init.js';
import { eventually, startServe, stopServe, type ServeProcess } from '../../support/serve-process.js';
import { http } from '../support/http.js';
import { PG_URL } from '../support/backends.js';

const d = PG_URL ? describe : describe.skip;

d('the API cache on two serve processes sharing PostgreSQL', () => {
  let dir: string;
  const nodes: ServeProcess[] = [];
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'smartcage-cache-nodes-'));
    await initSite(dir, { siteKey: `n${randomBytes(6).toString('hex')}`, database: PG_URL });
    const file = path.join(dir, 'site.json');
    const config = JSON.parse(readFileSync(file, 'utf8')) as { endpoints: unknown[] };
    config.endpoints.push(
      { path: 'views', method: 'GET', function: 'views', api_id: 1, cache: { seconds: 600 } },
      { path: 'count', method: 'GET', function: 'count', api_id: 1 },
    );
    writeFileSync(file, JSON.stringify(config, null, 2));
    writeFileSync(
      path.join(dir, 'functions', 'views.tpl'),
      '{assign_topics_detail var=t topics_id=7}{return value=$t.view_count}',
    );
    writeFileSync(
      path.join(dir, 'functions', 'count.tpl'),
      '{update_counter value=$smarty.get.v topics_group_id=1 slug=7 ext_slug="view_count"}{sync_counter ids="7"}{return value="ok"}',
    );
    for (let i = 0; i < 2; i++)
      nodes.push(await startServe(['--site', dir, '--port', '0', '--processes', '1'], { fromSources: true }));
  }, 120_000);
  afterAll(async () => {
    await Promise.all(nodes.map((n) => stopServe(n)));
    rmSync(dir, { recursive: true, force: true });
  });
  const get = async (node: number, p: string) => {
    const r = await http(`${nodes[node]!.url}${p}`);
    return { status: r.status, body: r.body, cache: r.headers['x-cache'] };
  };

  it('a write on one node makes the next read on the other a miss with the new content', async () => {
    expect((await get(0, '/rcms-api/1/count?v=5')).status).toBe(200);
    for (const n of [0, 1]) {
      expect(await get(n, '/rcms-api/1/views')).toMatchObject({ body: '5', cache: 'miss' });
      expect(await get(n, '/rcms-api/1/views')).toMatchObject({ body: '5', cache: 'hit' });
    }
    expect((await get(0, '/rcms-api/1/count?v=6')).status).toBe(200);
    // The writer sees its own write at once; the other node once it reads the version again.
    expect(await get(0, '/rcms-api/1/views')).toMatchObject({ body: '6', cache: 'miss' });
    let seen: { body: string; cache: unknown } | undefined;
    expect(
      await eventually(async () => {
        seen = await get(1, '/rcms-api/1/views');
        return seen.body === '6';
      }, 5000),
    ).toBe(true);
    expect(seen!.cache).toBe('miss');
    expect(await get(1, '/rcms-api/1/views')).toMatchObject({ body: '6', cache: 'hit' });
  });
});
