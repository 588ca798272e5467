/**
 * The members, tags and community data of a local site, through its adapters (what an embedder's
 * adapters must do too): the sample data, one tenant's rows only, and writes that are whole or
 * absent. Plugin rules are tested through renders in test/plugins/members, tags and community.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { eachBackend, sampleSite, type Backend } from './support/backends.js';
import type { Site } from '../../src/site/open-site.js';
import { createEngine } from '../../src/index.js';

type OpenSite = Site & { done(): Promise<void> };

function twoSites(backend: Backend): { a: () => OpenSite; b: () => OpenSite } {
  let a: OpenSite | undefined;
  let b: OpenSite | undefined;
  beforeAll(async () => {
    a = await sampleSite(backend);
    b = await sampleSite(backend);
  });
  afterAll(async () => {
    await a?.done();
    await b?.done();
  });
  return { a: () => a!, b: () => b! };
}

eachBackend('members, tags and community data of a site', (backend) => {
  const { a, b } = twoSites(backend);

  it('answers the sample members and groups', async () => {
    const m = a().host.members!;
    expect(await m.isSuperUser(1)).toBe(true);
    expect(await m.isSuperUser(2)).toBe(false);
    expect(await m.member!(2)).toEqual({
      memberId: 2,
      name1: '佐藤',
      name2: '花子',
      nickname: 'はなこ',
      email: 'hanako.sato@example.com',
      loginId: 'hanako',
      open: true,
      groupIds: [1],
      created: '2023-04-15 10:30:00',
      updated: '2023-04-15 10:30:00',
    });
    expect(await m.member!(999)).toBeNull();
    expect(await m.groups!([3, 1, 99])).toEqual([
      { groupId: 1, names: { en: 'Regular members', ja: '一般会員' }, viewerGroupIds: [1, 2] },
      { groupId: 3, names: { en: 'Premium members', ja: 'プレミアム会員' }, viewerGroupIds: [2, 3] },
    ]);
    expect((await m.customSearches!()).map((s) => s.id)).toEqual([1, 2, 3]);
  });

  it('answers the sample tags: a child category, a tag named in Japanese only, relations in order', async () => {
    const tags = a().host.tags!;
    expect((await tags.categories()).map((c) => [c.categoryId, c.parentId])).toEqual([
      [1, null],
      [2, null],
      [3, 1],
      [4, 3],
    ]);
    expect((await tags.tagsOf(1)).map((x) => [x.tagId, x.openContentsCount])).toEqual([
      [1, 7],
      [2, 6],
      [3, 6],
      [4, 8],
    ]);
    expect((await tags.tags([7, 9])).map((x) => [x.names, x.openContentsCount])).toEqual([
      [{ ja: '福岡' }, 8],
      [{ en: 'Security', ja: 'セキュリティ' }, 0],
    ]);
    expect(await tags.related('topics', 26)).toEqual([1, 5, 9]);
    expect(await tags.related('member', 26)).toEqual([]);
  });

  it('answers open comments only, newest first, and counts favorites by whom and since when', async () => {
    const h = a().host;
    const comments = await h.comments!.newest({ moduleType: 'topics', moduleId: 1, limit: 50 });
    expect(comments.map((c) => c.commentId)).toEqual([8, 6, 5, 4, 3, 2, 1]);
    const q = { moduleType: 'topics', moduleId: 1, actionType: 0, since: null };
    expect(await h.favorites!.count(q)).toBe(6);
    expect(await h.favorites!.count({ ...q, since: 1699395200 })).toBe(4);
    expect(await h.favorites!.count({ ...q, moduleId: null, by: { memberId: 2 } })).toBe(5);
    expect(await h.favorites!.count({ ...q, moduleId: null, by: { cookieId: 'visitor-7f3a9c2e5b814d06' } })).toBe(3);
    expect(await h.favorites!.countPerItem!({ ...q, moduleId: null }, 2)).toEqual([
      [1, 6],
      [2, 4],
    ]);
  });

  it('keeps each tenant to its own rows when two sites share a database', async () => {
    await b().db.run('UPDATE members SET nickname = ? WHERE tenant = ? AND member_id = ?', [
      'changed in b',
      b().tenant,
      2,
    ]);
    await b().db.run('DELETE FROM comments WHERE tenant = ?', [b().tenant]);
    await b().db.run('DELETE FROM tag_relations WHERE tenant = ?', [b().tenant]);
    expect((await a().host.members!.member!(2))!.nickname).toBe('はなこ');
    expect((await b().host.members!.member!(2))!.nickname).toBe('changed in b');
    expect(await a().host.comments!.newest({ moduleType: 'topics', moduleId: 1, limit: 1 })).toHaveLength(1);
    expect(await b().host.comments!.newest({ moduleType: 'topics', moduleId: 1, limit: 1 })).toHaveLength(0);
    expect(await a().host.tags!.related('topics', 26)).toEqual([1, 5, 9]);
  });

  it("replaces a member's custom-search results whole, or not at all", async () => {
    const m = a().host.members!;
    const results = async (): Promise<number[]> =>
      (
        await a().db.all<{ cs_id: number }>(
          'SELECT cs_id FROM member_custom_search_results WHERE tenant = ? AND member_id = ? ORDER BY cs_id',
          [a().tenant, 2],
        )
      ).map((r) => r.cs_id);
    expect(await results()).toEqual([1, 3]);
    await m.setCustomSearchResults!(2, [2, 3]);
    expect(await results()).toEqual([2, 3]);
    // 999 is no custom search: the insert after the delete fails, and the delete is undone with it.
    await expect(m.setCustomSearchResults!(2, [1, 999])).rejects.toThrow();
    expect(await results()).toEqual([2, 3]);
  });

  it("one engine for both sites, a resolver per render: a render reaches its own site's adapters and rows only", async () => {
    await b().db.run('DELETE FROM comments WHERE tenant = ?', [b().tenant]);
    const sites = new Map([a(), b()].map((site) => [site.tenant, site]));
    const asked: string[] = [];
    const engine = createEngine({
      workers: 0,
      host: (identity) => {
        asked.push(identity.tenant);
        return sites.get(identity.tenant)!.host;
      },
    });
    try {
      const t = '{assign_new_comment_list module_id=1 cnt=50 var=c}{$c|@count}';
      const own = await a().host.comments!.newest({ moduleType: 'topics', moduleId: 1, limit: 50 });
      expect(own.length).toBeGreaterThan(0);
      expect((await engine.render(t, { identity: a().identity() })).output).toBe(String(own.length));
      expect((await engine.render(t, { identity: b().identity() })).output).toBe('0');
      expect(asked).toEqual([a().tenant, b().tenant]);
    } finally {
      await engine.close();
    }
  });
});
