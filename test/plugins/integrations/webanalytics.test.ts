/**
 * {webanalytics} on the sample site, on both backends: site.json `integrations` points the
 * analytics and cloud settings at the test services (api.example.com on 127.0.0.2, through the
 * test egress policy), secrets.json holds the service-account key. The report sets the pending
 * counters of the contents it names, only those, in one transaction; reset_flg, empty and failed
 * reports, and every refusal.
 */
import { expect, it } from 'vitest';
import { eachBackend } from '../../site/support/backends.js';
import { siteBench } from '../../site/support/site-bench.js';
import { httpTestAdapter } from '../../support/host/http.js';
import {
  ANALYTICS_SCOPE,
  SA_EMAIL,
  TOKEN_URL,
  analyticsReports,
  integrationRequests,
  serviceAccountJson,
} from '../../support/host/integrations.js';
import { decodeJwt } from 'jose';

const PROPERTY = '2001';
const VIEWS = '{assign_topics_detail var=t topics_id=$id}{$t.view_count}';
const SET = '{webanalytics var=r topics_group_id=1 update_column_slug="view_count" updated_topics_ids=ids';

eachBackend('webanalytics', (backend) => {
  const bench = siteBench(backend, {
    sample: {
      edit: (config) => {
        config.integrations = {
          cloud: { token_url: TOKEN_URL, pubsub_base: 'https://api.example.com/cloud/pubsub' },
          analytics: { api_base: 'https://api.example.com/analytics', property_id: PROPERTY, sa_secret_name: 'GA_SA' },
        };
      },
      files: { 'secrets.json': JSON.stringify({ GA_SA: { value: serviceAccountJson(SA_EMAIL) } }) },
      open: { http: httpTestAdapter()('default').http! },
    },
  });
  const views = async (ids: number[]): Promise<string[]> =>
    Promise.all(ids.map((id) => bench.render(VIEWS, { vars: { id } })));
  const report = (rows: [string, string][]): void => void analyticsReports.set(PROPERTY, rows);
  const lastReportRequest = (): Record<string, unknown> => {
    const req = integrationRequests.filter((r) => r.path.startsWith('/analytics/')).at(-1)!;
    expect(req.path).toBe(`/analytics/v1beta/properties/${PROPERTY}:runReport`);
    return JSON.parse(req.body) as Record<string, unknown>;
  };

  it('sets the counters of the contents the report names, by path ID or slug, summed; sync_counter publishes them', async () => {
    report([
      ['/news/detail/10', '30'],
      ['/news/news-11/', '12'],
      ['/news/detail/10?ref=mail', '5'],
      ['/about', '7'],
      ['/blog/27', '9'],
      ['/news/999', '3'],
    ]);
    const out = await bench.render(`${SET}}{$ids|@implode:","}|{$r["/news/detail/10"]}|{$r|@count}`);
    expect(out).toBe('10,11|30|6');
    // The request: the default range (7 days before .. today, site time zone), the default dimension and metric.
    expect(lastReportRequest()).toEqual({
      dateRanges: [{ startDate: '2023-11-08', endDate: '2023-11-15' }],
      dimensions: [{ name: 'pagePath' }],
      metrics: [{ name: 'screenPageViews' }],
      limit: 10000,
    });
    const token = integrationRequests.filter((r) => r.path === '/cloud/token').at(-1)!;
    expect(decodeJwt(new URLSearchParams(token.body).get('assertion')!).scope).toBe(ANALYTICS_SCOPE);
    expect(await views([10, 11, 12])).toEqual(['170', '177', '184']);
    await bench.render('{sync_counter ids=$ids}', { vars: { ids: [10, 11] } });
    expect(await views([10, 11, 12, 27])).toEqual(['35', '12', '184', '']);
  });

  it('with reset_flg=1 sets every content of the group to 0 first, in the same write', async () => {
    report([['/news/news-14', '4.6']]);
    const out = await bench.render(`${SET} reset_flg=1}{$ids|@count} {$ids[0]} {$ids[25]}`);
    expect(out).toBe('26 1 26');
    await bench.render('{sync_counter ids=$ids}', { vars: { ids: [13, 14, 15] } });
    expect(await views([13, 14, 15])).toEqual(['0', '5', '0']);
  });

  it('sets nothing, the reset included, for an empty report or a failed one', async () => {
    await bench.render('{update_counter value=77 topics_group_id=1 slug=16 ext_slug="view_count"}');
    report([]);
    expect(await bench.render(`${SET} reset_flg=1}{$ids|@count}/{$r|@count}`)).toBe('0/0');
    analyticsReports.delete(PROPERTY);
    const failed = await bench.result(`${SET} reset_flg=1}{if $r === false}false{/if} {$ids|@count}`);
    expect(failed.output).toBe('false 0');
    expect(failed.logs.map((l) => l.message).join()).toContain('HTTP 500');
    await bench.render('{sync_counter ids="16"}');
    expect(await views([16])).toEqual(['77']);
  });

  it("reads strtotime dates in the site's time zone, other dimensions and metrics, queries fields, and a repeating column's index", async () => {
    report([['news-17', '3']]);
    const queries =
      '{"dimensionFilter":{"filter":{"fieldName":"pagePath","stringFilter":{"matchType":"BEGINS_WITH","value":"/news/"}}}}';
    const tpl =
      '{webanalytics var=r startDate="2023-10-01" endDate="2023-10-01 +6 days" update_target_dimension="unifiedPagePathScreen" update_target_metric="eventCount" queries=$q topics_group_id=1 update_column_slug="reactions" update_column_index=2 updated_topics_ids=ids}{$ids[0]}';
    expect(await bench.render(tpl, { vars: { q: queries } })).toBe('17');
    expect(lastReportRequest()).toEqual({
      dimensionFilter: {
        filter: { fieldName: 'pagePath', stringFilter: { matchType: 'BEGINS_WITH', value: '/news/' } },
      },
      dateRanges: [{ startDate: '2023-10-01', endDate: '2023-10-07' }],
      dimensions: [{ name: 'unifiedPagePathScreen' }],
      metrics: [{ name: 'eventCount' }],
      limit: 10000,
    });
    expect(
      await bench.render('{sync_counter ids="17"}{assign_topics_detail var=t topics_id=17}{$t.reactions[2]}'),
    ).toBe('3');
    // Without a group and column it only reads the report.
    expect(await bench.render('{webanalytics var=r updated_topics_ids=ids}{$r["news-17"]} {$ids|@count}')).toBe('3 0');
  });

  it('refuses a column that is not a counter, a group that does not exist, half a target and bad dates or queries', async () => {
    report([['/news/detail/18', '1']]);
    await bench.render('{update_counter value=55 topics_group_id=1 slug=18 ext_slug="view_count"}');
    const attempt = (attrs: string, vars?: Record<string, unknown>) =>
      bench.error(`\n{webanalytics var=r ${attrs}}`, { vars });
    expect(await attempt('topics_group_id=1 update_column_slug="author"')).toMatchObject({
      code: 'E_BAD_ATTRIBUTE',
      line: 2,
    });
    expect(await attempt('topics_group_id=1 update_column_slug="view_count" update_column_index=1')).toMatchObject({
      code: 'E_BAD_ATTRIBUTE',
    });
    expect(await attempt('topics_group_id=1 update_column_slug="no_such_column"')).toMatchObject({
      code: 'E_NOT_FOUND',
    });
    expect(await attempt('topics_group_id=99 update_column_slug="view_count"')).toMatchObject({ code: 'E_NOT_FOUND' });
    expect(await attempt('topics_group_id=1')).toMatchObject({ code: 'E_BAD_COMBINATION' });
    expect(await attempt('update_column_slug="view_count"')).toMatchObject({ code: 'E_BAD_COMBINATION' });
    expect(await attempt('reset_flg=1')).toMatchObject({ code: 'E_BAD_COMBINATION' });
    expect(await attempt('reset_flg=2')).toMatchObject({ code: 'E_BAD_ATTR' });
    expect(await attempt('startDate="not a date at all"')).toMatchObject({ code: 'E_BAD_ATTRIBUTE' });
    expect(await attempt('startDate="2023-11-10" endDate="2023-11-01"')).toMatchObject({ code: 'E_BAD_ATTRIBUTE' });
    expect(await attempt('update_target_metric="views; drop"')).toMatchObject({ code: 'E_BAD_ATTRIBUTE' });
    expect(await attempt('queries=$q', { q: '{not json' })).toMatchObject({ code: 'E_BAD_ATTRIBUTE' });
    expect(await attempt('queries=$q', { q: '{"limit": 1000000}' })).toMatchObject({ code: 'E_BAD_ATTRIBUTE' });
    expect(await attempt('queries=$q', { q: '[1]' })).toMatchObject({ code: 'E_BAD_ATTRIBUTE' });
    await bench.render('{sync_counter ids="18"}');
    expect(await views([18])).toEqual(['55']);
  });

  it('refuses a report of more rows than it asked for, and takes one of exactly that many', async () => {
    const rows = (n: number): [string, string][] => Array.from({ length: n }, (_, i) => [`/other/page-${i}`, '1']);
    report(rows(10_001));
    expect(
      await bench.error('{webanalytics var=r topics_group_id=1 update_column_slug="view_count" reset_flg=1}'),
    ).toMatchObject({ code: 'E_SIZE_LIMIT' });
    report([...rows(9_999), ['/news/21', '8']]);
    expect(await bench.render(`${SET}}{$ids|@implode:","} {$r|@count}`)).toBe('21 10000');
  });

  it('writes all counters of setCounters or none', async () => {
    const { content } = bench.site.host;
    const tenant = bench.site.tenant;
    const target = (topicId: number) => ({ topicId, columnId: 2, index: 0 });
    const pending = () =>
      bench.site.db.all<{ topic_id: number; value: number }>(
        'SELECT topic_id, value FROM topic_counters_pending WHERE tenant = ? AND topic_id IN (19, 20) AND column_id = 2 ORDER BY topic_id',
        [tenant],
      );
    await content!.setCounters!([
      { target: target(19), value: 1 },
      { target: target(20), value: 2 },
    ]);
    await expect(
      content!.setCounters!([
        { target: target(19), value: 5 },
        { target: target(20), value: null as unknown as number },
      ]),
    ).rejects.toThrow();
    expect((await pending()).map((r) => Number(r.value))).toEqual([1, 2]);
    await content!.setCounters!([
      { target: target(19), value: 5 },
      { target: target(20), value: 6 },
    ]);
    await bench.render('{sync_counter ids="19,20"}');
    expect(await views([19, 20])).toEqual(['5', '6']);
  });
});
