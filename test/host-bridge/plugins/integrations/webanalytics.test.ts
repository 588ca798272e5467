/**
 * {webanalytics} on the test host, which has analytics settings but no content adapter: the
 * report alone works; setting counters needs content.setCounters and content.topicIdsBySlug.
 * (The counters themselves: test/plugins/integrations/webanalytics.test.ts, on the sample site.)
 */
import { describe, expect, it } from 'vitest';
import { testEngine } from '../../../support/engine.js';
import { testHost } from '../../../support/test-host.js';
import { OTHER_TENANT, failure, seen } from './support.js';

const engine = testEngine();

describe('webanalytics without a content adapter', () => {
  it('reads the report, and refuses to set counters with E_HOST_CAPABILITY before any request', async () => {
    expect((await engine.render('{webanalytics var=r}{$r|@count}')).output).toBe('4');
    const { result, requests } = await seen(() =>
      failure(engine, '{webanalytics var=r topics_group_id=1 update_column_slug="view_count"}'),
    );
    expect(result.code).toBe('E_HOST_CAPABILITY');
    expect(result.message).toContain('content');
    expect(requests).toEqual([]);
  });

  it('names the missing method of a content adapter that lacks it', async () => {
    const content = { group: async () => ({ id: 1, names: {}, descriptions: {} }) } as unknown as NonNullable<
      ReturnType<typeof testHost>['content']
    >;
    const e = testEngine({ host: { ...testHost(), content } });
    expect(
      (await failure(e, '{webanalytics var=r topics_group_id=1 update_column_slug="view_count"}')).message,
    ).toContain('content.setCounters');
  });

  it('is E_HOST_CAPABILITY for a tenant without analytics settings', async () => {
    expect((await failure(engine, '{webanalytics var=r}', { identity: OTHER_TENANT })).code).toBe('E_HOST_CAPABILITY');
  });
});
