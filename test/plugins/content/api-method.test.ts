/**
 * {api_method} on both backends: GET-type Topics and TopicsCategory operations in the API's
 * shapes (list with pageInfo as assign_pager makes it, details), only open contents; POST-type
 * operations and other versions refused; unknown operations answered with `errors`. Every case
 * runs twice: in a sandbox worker (the async path) and in this process, where on SQLite the render
 * takes the synchronous slice (D268): same answers. SQLite's reads answer at once on both paths
 * (D362); which renders took the slice is read from the host-call channel.
 */
import { afterAll, expect, it } from 'vitest';
import { watchAsyncHostCalls } from '../../../src/security/async-host-calls.js';
import { eachBackend } from '../../site/support/backends.js';
import { siteBench } from '../../site/support/site-bench.js';
import type { ContentAdapter } from '../../../src/index.js';

/** The content adapter, counting the contents read through its now face and through its promises. */
function counted(c: ContentAdapter, served: { now: number; later: number }): ContentAdapter {
  const now = c.now;
  return {
    ...c,
    topics: (ids) => {
      served.later++;
      return c.topics(ids);
    },
    ...(now
      ? {
          now: {
            ...now,
            topics: (ids: readonly number[]) => {
              served.now++;
              return now.topics(ids);
            },
          },
        }
      : {}),
  };
}

/** Host calls answered off the slice (the async path). */
const calls = watchAsyncHostCalls();
afterAll(() => calls.stop());

for (const workers of [1, 0])
  eachBackend(
    `api_method (${workers ? 'a sandbox worker' : 'in process, the slice where reads answer at once'})`,
    (backend) => {
      const served = { now: 0, later: 0 };
      const bench = siteBench(backend, {
        // The longest slice a configuration may ask for: a loaded machine cuts a render now and then.
        engine: { workers, limits: { syncSliceMs: 20 } },
        host: (h) => ({ ...h, content: counted(h.content!, served) }),
      });

      it('takes the synchronous slice only in process on SQLite, whose adapter answers at once', async () => {
        const source = '{api_method var=r model="Topics" method="details" method_params=$m}{$r.details.topics_id}';
        // The first render defines the template and goes asynchronously; the next ones may slice
        // (a slice cut on a loaded machine sends the next 8 renders async, then it is tried again).
        served.now = served.later = 0;
        calls.reset();
        for (let i = 0; i < 12; i++) expect(await bench.render(source, { vars: { m: { topics_id: 3 } } })).toBe('3');
        if (workers === 0 && backend.name === 'sqlite') expect(calls.count).toBeLessThan(12);
        else expect(calls.count).toBe(12);
        // SQLite's now face answers on either path (D362); PostgreSQL answers through promises.
        expect(served).toEqual(backend.name === 'sqlite' ? { now: 12, later: 0 } : { now: 0, later: 12 });
      });
      const call = async (
        model: string,
        method: string,
        mp: Record<string, unknown>,
        rp: Record<string, unknown> = {},
      ): Promise<Record<string, unknown>> =>
        JSON.parse(
          await bench.render(
            '{api_method var=r model=$model method=$method method_params=$mp request_params=$rp}{$r|@json_encode}',
            { vars: { model, method, mp, rp } },
          ),
        ) as Record<string, unknown>;

      it('lists the open contents of a group, newest first, ten to a page', async () => {
        const r = await call('Topics', 'list', { topics_group_id: 1 });
        expect(Object.keys(r)).toEqual(['errors', 'messages', 'list', 'pageInfo']);
        expect(r.errors).toEqual([]);
        const list = r.list as Record<string, unknown>[];
        expect(list.map((t) => t.topics_id)).toEqual([25, 24, 23, 22, 21, 20, 19, 18, 17, 16]);
        expect(list[0]).toMatchObject({
          subject: '11月のリリースノート',
          topics_group_id: 1,
          contents_type_nm: 'お知らせ',
          view_count: 275,
        });
        expect(r.pageInfo).toEqual({ totalCnt: 25, perPage: 10, totalPageCnt: 3, pageNo: 1, next_page_param: 2 });
      });

      it('pages with cnt and pageID as assign_pager does: a page past the last is the last', async () => {
        const page3 = await call('Topics', 'list', { topics_group_id: 1 }, { cnt: 10, pageID: 3 });
        expect((page3.list as { topics_id: number }[]).map((t) => t.topics_id)).toEqual([5, 4, 3, 2, 1]);
        const past = await call('Topics', 'list', { topics_group_id: 1 }, { cnt: '10', pageID: '99' });
        expect(past.pageInfo).toEqual(page3.pageInfo);
        expect(past.pageInfo).toEqual({ totalCnt: 25, perPage: 10, totalPageCnt: 3, pageNo: 3, next_page_param: null });
        const pager = await bench.render(
          '{assign_pager from=$l var_pageInfo=p perPage=10 pageID=99}{$p|@json_encode}',
          {
            vars: { l: Array.from({ length: 25 }, (_, i) => i) },
          },
        );
        expect(JSON.parse(pager)).toEqual(past.pageInfo);
        expect(
          ((await call('Topics', 'list', { topics_group_id: 1 }, { cnt: 1000 })).pageInfo as { perPage: number })
            .perPage,
        ).toBe(100);
      });

      it('filters a list by category and answers in the language asked', async () => {
        const r = await call('Topics', 'list', { topics_group_id: 1, lang: 'en' }, { contents_type: 4 });
        expect((r.list as { subject: string }[]).map((t) => t.subject)).toEqual([
          'Webinar: forms and member management',
          'Webinar: running a multilingual site',
          'Webinar: member sites built on APIs',
          'Webinar: headless CMS for beginners',
        ]);
      });

      it('answers details of an open content only', async () => {
        const r = await call('Topics', 'details', { topics_id: 3 });
        expect(Object.keys(r)).toEqual(['errors', 'messages', 'details']);
        expect(r.details).toMatchObject({
          topics_id: 3,
          subject: '東京で開発者ミートアップを開催します',
          related_links: ['https://example.com/events/tokyo-meetup'],
        });
        const closed = await call('Topics', 'details', { topics_id: 26 });
        expect(closed.details).toEqual([]);
        expect(closed.errors).toEqual([{ code: 'not_found', message: 'content 26 does not exist or is not open' }]);
        expect((await call('Topics', 'details', { topics_id: 27, topics_group_id: 1 })).details).toEqual([]);
        expect((await call('Topics', 'details', {})).errors).toMatchObject([{ code: 'missing_parameter' }]);
      });

      it('takes the language from method_params.lang or request_params._lang, and refuses one that is not a language code', async () => {
        expect(
          ((await call('Topics', 'details', { topics_id: 3 }, { _lang: 'en' })).details as { subject: string }).subject,
        ).toBe('Developer meetup in Tokyo');
        expect(
          await bench.error('{api_method var=r model="Topics" method="details" method_params=$m}', {
            vars: { m: { topics_id: 3, lang: 'en-US; DROP' } },
          }),
        ).toMatchObject({ code: 'E_BAD_ATTRIBUTE' });
      });

      it('lists the published categories of a group', async () => {
        const r = await call('TopicsCategory', 'list', { topics_group_id: 1, lang: 'en' });
        expect((r.list as { category_nm: string }[]).map((c) => c.category_nm)).toEqual([
          'Announcements',
          'Events',
          'Press releases',
          'Webinars',
        ]);
      });

      it('answers an unknown model or operation with errors, as the platform does', async () => {
        expect((await call('Members', 'list', {})).errors).toMatchObject([{ code: 'unknown_method' }]);
        expect((await call('Topics', 'search', {})).errors).toMatchObject([{ code: 'unknown_method' }]);
        for (const [model, method] of [
          ['Topics', 'constructor'],
          ['constructor', 'length'],
          ['__proto__', 'toString'],
          ['topics', 'hasOwnProperty'],
        ]) {
          expect((await call(model!, method!, {})).errors, `${model}::${method}`).toMatchObject([
            { code: 'unknown_method' },
          ]);
        }
        expect(await bench.render('{api_method var=r}{$r.errors.0.code}')).toBe('unknown_method');
      });

      it('refuses POST-type operations and versions other than 1, at their line', async () => {
        for (const method of ['insert', 'update', 'delete', 'Delete', 'upsert']) {
          const e = await bench.error(`\n\n{api_method var=r model="Topics" method="${method}"}`);
          expect(e).toMatchObject({ code: 'E_BAD_ATTRIBUTE', line: 3 });
          expect(e.message).toContain('GET-type operations only');
        }
        const v2 = await bench.error('{api_method var=r model="Topics" method="list" version=2}');
        expect(v2).toMatchObject({ code: 'E_BAD_ATTRIBUTE', line: 1 });
        expect(v2.message).toContain('only version 1');
        expect(
          await bench.error('{api_method var=r model="Topics" method="list" method_params="topics_group_id=1"}'),
        ).toMatchObject({ code: 'E_BAD_ATTRIBUTE' });
      });
    },
  );
