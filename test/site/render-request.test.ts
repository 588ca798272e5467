/**
 * A render on a site given a request (src/site/render.ts, `render --site --request`):
 * $smarty.server.REQUEST_METHOD is what a web server would set (D144).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { renderOnSite } from '../../src/site/render.js';
import { eachBackend, sampleSite } from './support/backends.js';

const METHOD = '{$smarty.server.REQUEST_METHOD}|{$smarty.post.q}{$smarty.get.q}';

eachBackend("a site render's request", (backend) => {
  let site: Awaited<ReturnType<typeof sampleSite>>;
  beforeAll(async () => {
    site = await sampleSite(backend);
  });
  afterAll(() => site.done());
  const render = async (request?: Parameters<typeof renderOnSite>[2]['request']) =>
    (await renderOnSite(site, METHOD, { name: 'm.tpl', request })).output;

  it('POST with a body, GET without one; server.REQUEST_METHOD wins; no request, none', async () => {
    expect(await render({ post: { q: 'p' } })).toBe('POST|p');
    expect(await render({ get: { q: 'g' } })).toBe('GET|g');
    expect(await render({})).toBe('GET|');
    expect(await render({ post: { q: 'p' }, server: { REQUEST_METHOD: 'PUT' } })).toBe('PUT|p');
    expect(await render()).toBe('|');
  });
});
