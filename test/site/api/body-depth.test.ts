/**
 * A POSTed JSON body or a query nested past the engine's depth limit (issue 33, finding 5): a 400
 * with a code, never a 500 with a RangeError; a body at the limit still reaches the template. On
 * both backends.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { eachBackend } from '../support/backends.js';
import { endpoint, siteWith, type TestSite } from '../support/site-with.js';
import { MAX_BODY_DEPTH, serveApi } from '../../../src/site/api/serve-api.js';

const nested = (depth: number, open: string, close: string, leaf = '1') =>
  open.repeat(depth) + leaf + close.repeat(depth);

eachBackend('request bodies nested past the depth limit', (backend) => {
  let site: TestSite;
  beforeAll(async () => {
    site = await siteWith(backend, {
      edit: endpoint('echo', 'echo', { method: 'POST' }),
      files: {
        'functions/echo.tpl':
          '{assign var=n value=$smarty.post|@count}{assign var=g value=$smarty.get|@count}{return value="$n $g"}',
      },
    });
  });
  afterAll(() => site.done());

  const post = (body: string, query = '') =>
    serveApi(site, {
      method: 'POST',
      path: '/rcms-api/1/echo',
      query,
      headers: new Map([['content-type', 'application/json']]),
      body: Buffer.from(body),
      basePath: '/',
    });

  it('answers 400 body_too_deep for 5,000 levels of lists or objects, far under 1 MiB', async () => {
    for (const body of [
      nested(5000, '[', ']'),
      nested(5000, '{"a":', '}'),
      `{"x":${nested(MAX_BODY_DEPTH, '[', ']')}}`,
    ]) {
      const r = await post(body);
      expect([r.status, JSON.parse(r.body).errors?.[0]?.code ?? JSON.parse(r.body)]).toEqual([400, 'body_too_deep']);
    }
  });

  it('still runs a body at the limit, and a query nested as deep as PHP allows', async () => {
    const r = await post(nested(MAX_BODY_DEPTH, '[', ']'), 'a' + '[x]'.repeat(5000) + '=1');
    expect([r.status, r.body]).toEqual([200, '"1 1"']);
  });
});
