/**
 * Row budgets (issue 33, finding 3; D160) on both backends, through the real engine and the
 * local site's stores: one anonymous render that loops {assign_api_credential member_id=2} (the
 * attack made 1,000 sessions of 30 days) stops at the per-render budget with E_BUDGET at the
 * tag's line, and the site holds only those sessions; a member's sessions past its cap evict its
 * oldest; the tenant's cap refuses; a render that writes files in a loop stops at its budget.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { failureOf, siteWith, type TestSite } from '../support/site-with.js';
import { eachBackend, sampleSite } from '../support/backends.js';
import { ROW_BUDGETS } from '../../../src/index.js';

const LOOP = '{section name=i loop=1000}{assign_api_credential api_key="k" member_id=2 expire=2592000 var=c}{/section}';

eachBackend('row budgets', (backend) => {
  let site: TestSite;
  beforeAll(async () => {
    site = await siteWith(backend);
  });
  afterAll(() => site.done());
  const render = (src: string) => site.engines.at(0).render(src, { identity: site.identity({ memberId: null }) });
  const sessions = async (memberId?: number) =>
    Number(
      (await site.db.get<{ n: number }>(
        `SELECT COUNT(*) AS n FROM sessions WHERE tenant = ?${memberId ? ' AND member_id = ?' : ''}`,
        memberId ? [site.tenant, memberId] : [site.tenant],
      ))!.n,
    );

  it('one anonymous render looping {assign_api_credential} makes 10 sessions, then E_BUDGET at its line', async () => {
    expect(await failureOf(render(`\n${LOOP}`))).toBe('E_BUDGET@2');
    expect(await sessions(2)).toBe(ROW_BUDGETS.sessions.perRender);
  });

  it('a member past its cap loses its oldest sessions; the site never holds more than the cap for it', async () => {
    const { max } = ROW_BUDGETS.sessions.perMember;
    const oldest = await site.db.get<{ id_hash: string }>(
      'SELECT id_hash FROM sessions WHERE tenant = ? AND member_id = 2 LIMIT 1',
      [site.tenant],
    );
    // Made an hour earlier than the others: the first to go.
    await site.db.run('UPDATE sessions SET created = created - 3600 WHERE tenant = ? AND id_hash = ?', [
      site.tenant,
      oldest!.id_hash,
    ]);
    const one = '{section name=i loop=10}{assign_api_credential api_key="k" member_id=2 var=c}{/section}ok';
    for (let i = 0; i < 5; i++) expect((await render(one)).output).toBe('ok');
    expect(await sessions(2)).toBe(max);
    expect(
      await site.db.get('SELECT 1 AS x FROM sessions WHERE tenant = ? AND id_hash = ?', [site.tenant, oldest!.id_hash]),
    ).toBeUndefined();
  });

  it("the site past its cap refuses new sessions (E_BUDGET), evicting no other member's", async () => {
    const { max } = ROW_BUDGETS.sessions.perTenant;
    const now = Math.floor(Date.now() / 1000);
    const have = await sessions();
    // Other members' live sessions up to the cap, in one statement.
    await site.db.run(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
       INSERT INTO sessions (tenant, id_hash, member_id, token_hash, created, expires) SELECT ?, 'filler-' || i, 1000 + i, NULL, ?, ? FROM n`,
      [max - have, site.tenant, now, now + 86_400],
    );
    expect(await sessions()).toBe(max);
    expect(await failureOf(render('{assign_api_credential api_key="k" member_id=4 var=c}'))).toBe('E_BUDGET@1');
    expect(await sessions()).toBe(max);
    await site.db.run("DELETE FROM sessions WHERE tenant = ? AND id_hash LIKE 'filler-%'", [site.tenant]);
  });

  it('a render writing files in a loop stops at the storage budget', async () => {
    // A wall time long enough for 500 writes on a loaded machine: the budget, not the clock, ends it.
    const slow = await sampleSite(backend, { open: { engine: { limits: { wallMs: 60_000, cpuMs: 10_000 } } } });
    try {
      const r =
        '{section name=i loop=5000}{write_file path="/files/temp/b/f`$smarty.section.i.index`.txt" var=p value="x"}{/section}';
      expect(await failureOf(slow.engines.at(0).render(r, { identity: slow.identity({ memberId: null }) }))).toBe(
        'E_BUDGET@1',
      );
      const store = slow.host.files!;
      const { parseVirtualPath } = await import('../../../src/index.js');
      const listed = await store.list(parseVirtualPath('/files/temp/b'), { recursive: false, maxDepth: 1 });
      expect(listed.length).toBe(ROW_BUDGETS.storage.perRender);
    } finally {
      await slow.done();
    }
  }, 120_000);
});
