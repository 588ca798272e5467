/**
 * The API cache through `serve --site` over real HTTP, on both backends (D234-D236): a kept
 * answer is the same body; a write of content through the site makes the next read a miss with
 * the new content; a member never gets another member's answer; only what may be kept is kept;
 * an endpoint whose function writes cannot have a cache.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { cacheLookup, keepAnswer } from '../../../src/site/api/cached-answer.js';
import { eachBackend } from '../support/backends.js';
import { servedSite } from '../support/served-site.js';
import { siteWith } from '../support/site-with.js';
import { cookiePair, http } from '../support/http.js';
import { SESSION_COOKIE } from '../../../src/site/adapters/sessions.js';

const FILES = {
  'functions/views.tpl': '{assign_topics_detail var=t topics_id=7}{return value=$t.view_count}',
  'functions/count.tpl':
    '{update_counter value=$smarty.get.v topics_group_id=1 slug=7 ext_slug="view_count"}{sync_counter ids="7"}{return value="ok"}',
  'functions/whoami.tpl':
    '{if $smarty.session.member_id}{assign_member_detail var=m member_id=$smarty.session.member_id}{/if}{return value=$smarty.session.member_id}',
  'functions/login2.tpl': '{login member_id=2}{return value="in"}',
  'functions/login3.tpl': '{login member_id=3}{return value="in"}',
  'functions/get.tpl': '{assign var=o.get value=$smarty.get}{return value=$o}',
  'functions/detail.tpl': '{assign_topics_detail var=t topics_id=$smarty.get.id}{return value=$t.subject}',
  'functions/later.tpl': '{return value="read"}',
};

const cached = (p: string, fn: string, seconds = 600) => ({
  path: p,
  method: 'GET',
  function: fn,
  api_id: 1,
  cache: { seconds },
});
const plain = (p: string, fn: string) => ({ path: p, method: 'GET', function: fn, api_id: 1 });

function edit(config: Record<string, unknown>): void {
  (config.endpoints as unknown[]).push(
    cached('news-cached', 'news'),
    cached('views', 'views'),
    plain('count', 'count'),
    cached('whoami', 'whoami'),
    plain('login2', 'login2'),
    plain('login3', 'login3'),
    cached('get', 'get'),
    cached('detail', 'detail'),
    cached('later', 'later'),
  );
}

eachBackend('the API cache', (backend) => {
  const served = servedSite(backend, { edit, files: FILES });
  const get = (p: string, headers: Record<string, string> = {}) => http(served.at(p), { headers });

  it('a hit serves the body the miss made, the same as the endpoint without a cache', async () => {
    const first = await get('/rcms-api/1/news-cached?cnt=3');
    const second = await get('/rcms-api/1/news-cached?cnt=3');
    const uncached = await get('/rcms-api/1/news?cnt=3');
    expect([first.status, first.headers['x-cache'], second.status, second.headers['x-cache']]).toEqual([
      200,
      'miss',
      200,
      'hit',
    ]);
    expect(second.body).toBe(first.body);
    expect(second.body).toBe(uncached.body);
    expect(uncached.headers['x-cache']).toBeUndefined();
    expect(second.headers['content-type']).toBe('application/json; charset=utf-8');
  });

  it('a write of content through the site makes the next read a miss with the new content', async () => {
    expect((await get('/rcms-api/1/count?v=11')).status).toBe(200);
    const a = await get('/rcms-api/1/views');
    expect([a.body, (await get('/rcms-api/1/views')).headers['x-cache']]).toEqual(['11', 'hit']);
    expect((await get('/rcms-api/1/count?v=12')).status).toBe(200);
    const b = await get('/rcms-api/1/views');
    expect([b.headers['x-cache'], b.body]).toEqual(['miss', '12']);
    // The news list was kept before the writes: it is made again too.
    expect((await get('/rcms-api/1/news-cached?cnt=3')).headers['x-cache']).toBe('miss');
  });

  it("a member never gets another member's answer, nor the anonymous one", async () => {
    const anonymous = await get('/rcms-api/1/whoami');
    expect(anonymous.body).toBe('null');
    const two = cookiePair((await get('/rcms-api/1/login2')).cookies[0]!);
    const three = cookiePair((await get('/rcms-api/1/login3')).cookies[0]!);
    const asTwo = await get('/rcms-api/1/whoami', { cookie: two });
    const asThree = await get('/rcms-api/1/whoami', { cookie: three });
    expect([asTwo.body, asTwo.headers['x-cache'], asThree.body, asThree.headers['x-cache']]).toEqual([
      '2',
      'miss',
      '3',
      'miss',
    ]);
    for (const [cookie, body] of [
      [two, '2'],
      [three, '3'],
      ['', 'null'],
      [`${SESSION_COOKIE}=forged`, 'null'],
    ] as const) {
      const r = await get('/rcms-api/1/whoami', cookie ? { cookie } : {});
      expect([r.body, r.headers['x-cache']], cookie).toEqual([body, 'hit']);
    }
  });

  it('the key is the query as the template reads it, in its order', async () => {
    expect((await get('/rcms-api/1/get?a=1&b=2')).headers['x-cache']).toBe('miss');
    expect((await get('/rcms-api/1/get?%61=1&b=%32')).headers['x-cache']).toBe('hit');
    const swapped = await get('/rcms-api/1/get?b=2&a=1');
    expect([swapped.headers['x-cache'], swapped.body]).toEqual(['miss', '{"get":{"b":"2","a":"1"}}']);
    expect((await get('/rcms-api/1/get?a=1&b=3')).headers['x-cache']).toBe('miss');
  });

  it('an answer that is not a 200 is not kept', async () => {
    for (let i = 0; i < 2; i++) {
      const r = await get('/rcms-api/1/detail?id=abc');
      expect([r.status, r.headers['x-cache']]).toEqual([500, 'skip']);
    }
  });

  it('a function edited into a writer after the site was opened has its answers made, not kept', async () => {
    writeFileSync(path.join(served.site.dir, 'functions', 'later.tpl'), '{logger msg1="seen"}{return value="logged"}');
    for (let i = 0; i < 2; i++) {
      const r = await get('/rcms-api/1/later');
      expect([r.body, r.headers['x-cache']]).toEqual(['"logged"', 'skip']);
    }
  });

  it('keepAnswer judges the text that was rendered, not the file as it is by then', async () => {
    const site = served.site;
    const file = path.join(site.dir, 'functions', 'later.tpl');
    const later = site.config.endpoints.find((e) => e.function === 'later')!;
    const endpoint = { ...later, cache: later.cache! };
    const keep = async (onDisk: string, rendered: string, query: string) => {
      writeFileSync(file, onDisk);
      const miss = await cacheLookup(site, endpoint, null, { q: query });
      if (miss.hit) throw new Error('a hit before any answer was kept');
      return keepAnswer(site, miss, { status: 200, body: '"x"', rendered }, false);
    };
    const read = '{return value="read"}';
    const writer = '{logger msg1="seen"}{return value="logged"}';
    // Edited into a writer after a pure read rendered: the read's answer is kept.
    expect(await keep(writer, read, 'a')).toBe('miss');
    // Edited into a pure read after a writer rendered: the writer's answer is not.
    expect(await keep(read, writer, 'b')).toBe('skip');
    // An answer without the text it came from (an error) is not kept.
    const miss = await cacheLookup(site, endpoint, null, { q: 'c' });
    expect(miss.hit ? 'hit' : keepAnswer(site, miss, { status: 200, body: '"x"' }, false)).toBe('skip');
  });

  it('a site whose cached endpoint writes, reads a header or is a POST does not open, naming the endpoint', async () => {
    const refused = async (fn: string, source: string, method = 'GET') =>
      siteWith(backend, {
        edit: (c) => (c.endpoints as unknown[]).push({ ...cached('bad', fn, 5), method }),
        files: { [`functions/${fn}.tpl`]: source },
      }).then(
        async (s) => (await s.done(), 'opened'),
        (e: Error) => e.message,
      );
    expect(await refused('bad', FILES['functions/count.tpl'])).toBe(
      'site.json: endpoint /rcms-api/1/bad cannot have a cache: functions/bad.tpl calls {update_counter}, which is not a pure read',
    );
    expect(await refused('bad', '{sendmail to="a@example.com" subject="s" body="b"}')).toContain('{sendmail}');
    expect(await refused('bad', '{return value=$smarty.server.HTTP_ACCEPT_LANGUAGE}')).toContain(
      'reads $smarty.server',
    );
    expect(await refused('bad', '{return value=1}', 'POST')).toMatch(
      /\/endpoints\/\d+\/cache: is for GET endpoints only/,
    );
  });
});
