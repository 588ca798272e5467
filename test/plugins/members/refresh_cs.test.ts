/**
 * {refresh_cs} on the sample site: the render's member's cached custom-search results are reset
 * to what the conditions say now, plus `add`; nothing changes when it is refused. Sample
 * searches: 1 open profiles in group 1, 2 groups 2 or 3, 3 everybody.
 */
import { expect, it } from 'vitest';
import { eachBackend } from '../../site/support/backends.js';
import { siteBench } from '../../site/support/site-bench.js';

eachBackend('{refresh_cs}', (backend) => {
  const s = siteBench(backend);
  const results = async (memberId: number): Promise<number[]> =>
    (
      await s.site.db.all<{ cs_id: number }>(
        'SELECT cs_id FROM member_custom_search_results WHERE tenant = ? AND member_id = ? ORDER BY cs_id',
        [s.site.tenant, memberId],
      )
    ).map((r) => r.cs_id);
  const setResults = async (memberId: number, ids: number[]): Promise<void> => {
    await s.site.db.run('DELETE FROM member_custom_search_results WHERE tenant = ? AND member_id = ?', [
      s.site.tenant,
      memberId,
    ]);
    for (const id of ids)
      await s.site.db.run('INSERT INTO member_custom_search_results (tenant, cs_id, member_id) VALUES (?, ?, ?)', [
        s.site.tenant,
        id,
        memberId,
      ]);
  };

  it("resets the render's member's stale results to what the conditions say now", async () => {
    await setResults(2, [2]);
    expect(await s.render('{refresh_cs}done', { memberId: 2 })).toBe('done');
    expect(await results(2)).toEqual([1, 3]);
    // A closed profile does not meet search 1's open_flg:1.
    await setResults(6, [1, 2, 3]);
    await s.render('{refresh_cs}', { memberId: 6 });
    expect(await results(6)).toEqual([3]);
  });

  it("adds the searches named in add, as ids or digit strings; only the render's member changes", async () => {
    const before3 = await results(3);
    await s.render('{assign_array var=ids values="2"}{refresh_cs add=$ids}', { memberId: 2 });
    expect(await results(2)).toEqual([1, 2, 3]);
    expect(await results(3)).toEqual(before3);
    await s.render('{refresh_cs add=$ids}', { memberId: 2, vars: { ids: [] } });
    expect(await results(2)).toEqual([1, 3]);
  });

  it("an id that is not one of the site's custom searches is E_NOT_FOUND and changes nothing", async () => {
    await setResults(2, [2]);
    expect(await s.error('{refresh_cs add=$ids}', { memberId: 2, vars: { ids: [1, 999] } })).toMatchObject({
      code: 'E_NOT_FOUND',
    });
    expect(await results(2)).toEqual([2]);
  });

  it('a search whose conditions cannot be read puts nobody in it', async () => {
    await s.site.db.run('UPDATE member_custom_searches SET conditions = ? WHERE tenant = ? AND cs_id = ?', [
      '{"age": 30}',
      s.site.tenant,
      3,
    ]);
    await s.render('{refresh_cs}', { memberId: 2 });
    expect(await results(2)).toEqual([1]);
    await s.site.db.run('UPDATE member_custom_searches SET conditions = ? WHERE tenant = ? AND cs_id = ?', [
      '{}',
      s.site.tenant,
      3,
    ]);
  });

  it('needs a logged-in member, and takes none from an attribute', async () => {
    expect(await s.error('\n{refresh_cs}')).toMatchObject({ code: 'E_PERMISSION_DENIED', line: 2 });
    expect(await s.error('{refresh_cs member_id=3}', { memberId: 2 })).toMatchObject({ code: 'E_UNKNOWN_ATTR' });
  });

  it('add must be a list of at most 100 ids', async () => {
    for (const ids of [['a'], [0], [-1], [[1]], Array.from({ length: 101 }, (_, i) => i + 1)]) {
      expect(
        await s.error('{refresh_cs add=$ids}', { memberId: 2, vars: { ids } }),
        JSON.stringify(ids).slice(0, 20),
      ).toMatchObject({ code: 'E_BAD_ATTRIBUTE' });
    }
    expect(await s.error('{refresh_cs add="1"}', { memberId: 2 })).toMatchObject({ code: 'E_BAD_ATTRIBUTE' });
  });
});
