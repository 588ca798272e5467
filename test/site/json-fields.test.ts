/**
 * JSON-type extended columns (src/site/json-fields.ts, schema/json-fields.ts; D141): a value the
 * form editor saves is the content's extended value, so `{assign_topics_detail}` and the API
 * answer it; and a site made before D141 (values apart, in ext_json_values) moves them over at
 * its next open. On both backends, the editor and the render through the built command.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { initSite } from '../../src/site/init.js';
import { openSite } from '../../src/site/open-site.js';
import { jsonField, jsonValue, jsonValueContents } from '../../src/site/json-fields.js';
import { requireBuild, runBin } from '../support/bin.js';
import { startServe, stopServe, type ServeProcess } from '../support/serve-process.js';
import { eachBackend } from './support/backends.js';

const VENUE = { name: 'Umeda Hall', capacity: 300, floorMap: '', online: false };

async function newSite(url: string | null): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), 'smartcage-json-fields-'));
  await initSite(dir, { siteKey: `t${randomBytes(6).toString('hex')}`, database: url });
  return dir;
}

eachBackend("JSON fields are the contents' extended values", (backend) => {
  const dirs: string[] = [];
  let server: ServeProcess | undefined;
  beforeAll(requireBuild);
  afterAll(async () => {
    if (server) await stopServe(server);
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('saved in the editor of `smartcage serve --site`, the value is in the API answer and in a render', async () => {
    const dir = await newSite(backend.url);
    dirs.push(dir);
    server = await startServe(['--site', dir, '--port', '0']);
    const base = server.url;

    const save = await fetch(`${base}/ext/1/venue/3`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ value: JSON.stringify(VENUE) }).toString(),
    });
    expect(save.status).toBe(303);
    // A content of another group, or none, is not a place for the value.
    const elsewhere = await fetch(`${base}/ext/1/venue/27`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `value=${encodeURIComponent(JSON.stringify(VENUE))}`,
    });
    expect(elsewhere.status).toBe(404);

    const news = (await (await fetch(`${base}/rcms-api/1/news?cnt=30`)).json()) as {
      list: { topics_id: number; venue: unknown }[];
    };
    const byId = new Map(news.list.map((t) => [t.topics_id, t.venue]));
    expect(byId.get(3)).toEqual(VENUE);
    expect(byId.get(1)).toMatchObject({ name: 'Shibuya Hall' }); // the sample's value
    expect(byId.get(2)).toBeNull();

    const tpl = path.join(dir, 'venue.tpl');
    writeFileSync(tpl, '{assign_topics_detail topics_id=3 var=t}{$t.venue.name} ({$t.venue.capacity})');
    const r = runBin(['render', tpl, '--site', dir]);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('Umeda Hall (300)');
  });

  it('a site made before D141 (values in ext_json_values, no column) moves them over at its next open (migration 2)', async () => {
    const dir = await newSite(backend.url);
    dirs.push(dir);
    let site = await openSite(dir);
    const { tenant } = site;
    // As the site was then: the schema, no column row, the values apart (one of a content that is gone).
    await site.db.run('DELETE FROM topic_ext_values WHERE tenant = ? AND column_id = 6', [tenant]);
    await site.db.run('DELETE FROM topics_ext_columns WHERE tenant = ? AND id = 6', [tenant]);
    for (const [topic, value] of [
      [1, { name: 'Shibuya Hall' }],
      [4, { name: 'Namba Hall', capacity: 80 }],
      [999, { name: 'gone' }],
    ] as const) {
      await site.db.run(
        'INSERT INTO ext_json_values (tenant, group_id, slug, topic_id, value, updated) VALUES (?, 1, ?, ?, ?, 0)',
        [tenant, 'venue', topic, JSON.stringify(value)],
      );
    }
    expect(await jsonField(site, 1, 'venue')).toBeNull();
    // And at the schema version before the move (migration 2 in src/site/schema/migrations.ts).
    await site.db.run('DELETE FROM schema_migrations WHERE version >= 2');
    await site.close();

    for (let open = 0; open < 2; open++) {
      // Twice: the move runs once, as migration 2, and the second open finds it done.
      site = await openSite(dir);
      const column = await site.db.get<{ id: number; type: string; order_no: number }>(
        'SELECT id, type, order_no FROM topics_ext_columns WHERE tenant = ? AND group_id = 1 AND slug = ?',
        [tenant, 'venue'],
      );
      expect({ ...column, id: Number(column!.id) }).toEqual({ id: 6, type: 'json', order_no: 6 });
      const f = (await jsonField(site, 1, 'venue'))!;
      expect((await jsonValueContents(site, f, ['en'])).map((c) => c.id)).toEqual([1, 4]);
      expect(await jsonValue(site, f, 4)).toEqual({ name: 'Namba Hall', capacity: 80 });
      expect(await site.db.all('SELECT * FROM ext_json_values WHERE tenant = ?', [tenant])).toEqual([]);
      const [topic] = await site.host.content!.topics([4]);
      expect(topic!.ext).toContainEqual({
        columnId: 6,
        index: 0,
        value: JSON.stringify({ name: 'Namba Hall', capacity: 80 }),
      });
      await site.close();
    }
  });
});
