/**
 * {increment_counter}, {update_counter} and {sync_counter} on both backends: writes go to the
 * pending counters atomically and reach the content only with sync_counter; the content must be
 * of topics_group_id, the column a counter (index within its repeats); a sync that fails in the
 * middle applies nothing.
 */
import { expect, it } from 'vitest';
import { eachBackend } from '../../site/support/backends.js';
import { siteBench } from '../../site/support/site-bench.js';

const VIEWS = '{assign_topics_detail var=t topics_id=$id}{$t.view_count}';

eachBackend('counters', (backend) => {
  const bench = siteBench(backend);
  const views = (id: number): Promise<string> => bench.render(VIEWS, { vars: { id } });

  it('increments by content ID or slug and column slug or ID; the content shows it after sync_counter', async () => {
    expect(await views(10)).toBe('170');
    expect(
      await bench.render('{increment_counter var=v value=5 topics_group_id=1 slug=10 ext_slug="view_count"}{$v}'),
    ).toBe('175');
    expect(
      await bench.render('{increment_counter var=v value=-2 topics_group_id=1 slug="news-10" ext_slug=2}{$v}'),
    ).toBe('173');
    expect(await views(10)).toBe('170');
    expect(await bench.render('{sync_counter ids="10"}' + VIEWS, { vars: { id: 10 } })).toBe('173');
    expect(
      await bench.render('{increment_counter var=v value=1 topics_group_id=1 slug=10 ext_slug="view_count"}{$v}'),
    ).toBe('174');
  });

  it('sets a value with update_counter, and a repeating counter by index', async () => {
    expect(
      await bench.render('{update_counter var=v value=42 topics_group_id=1 slug=11 ext_slug="view_count"}{$v}'),
    ).toBe('42');
    expect(
      await bench.render(
        '{update_counter var=v value=9 topics_group_id=1 slug=11 ext_slug="reactions" index=2}{increment_counter var=w value=3 topics_group_id=1 slug=11 ext_slug="reactions" index=1}{$v},{$w}',
      ),
    ).toBe('9,6');
    expect(
      await bench.render(
        '{sync_counter ids=$ids}{assign_topics_detail var=t topics_id=11}{$t.view_count} {$t.reactions|@implode:","}',
        { vars: { ids: [11] } },
      ),
    ).toBe('42 2,6,9');
  });

  it('counts every one of many increments made at once', async () => {
    const inc = '{increment_counter var=v value=1 topics_group_id=1 slug=12 ext_slug="view_count"}';
    await Promise.all(Array.from({ length: 12 }, () => bench.render(inc)));
    expect(await bench.render(`{sync_counter ids="12"}${VIEWS}`, { vars: { id: 12 } })).toBe(String(100 + 12 * 7 + 12));
  });

  it('refuses a content outside topics_group_id, a column that is not a counter and an index past its repeats', async () => {
    const attempt = (attrs: string) => bench.error(`\n{increment_counter value=1 ${attrs}}`);
    expect(await attempt('topics_group_id=1 slug=27 ext_slug="view_count"')).toMatchObject({
      code: 'E_NOT_FOUND',
      line: 2,
    });
    expect(await attempt('topics_group_id=2 slug=1 ext_slug="view_count"')).toMatchObject({
      code: 'E_NOT_FOUND',
      line: 2,
    });
    expect(await attempt('topics_group_id=1 slug="no-such-slug" ext_slug="view_count"')).toMatchObject({
      code: 'E_NOT_FOUND',
    });
    expect(await attempt('topics_group_id=1 slug=1 ext_slug="likes"')).toMatchObject({ code: 'E_NOT_FOUND' });
    const notCounter = await attempt('topics_group_id=1 slug=1 ext_slug="author"');
    expect(notCounter).toMatchObject({ code: 'E_BAD_ATTRIBUTE', line: 2 });
    expect(notCounter.message).toContain('not a counter column');
    expect(await attempt('topics_group_id=1 slug=1 ext_slug="reactions" index=3')).toMatchObject({
      code: 'E_BAD_ATTRIBUTE',
    });
    expect(await attempt('topics_group_id=1 slug=1 ext_slug="view_count" index=1')).toMatchObject({
      code: 'E_BAD_ATTRIBUTE',
    });
    expect(await bench.error('{update_counter topics_group_id=1 slug=1 ext_slug="view_count"}')).toMatchObject({
      code: 'E_MISSING_ATTR',
    });
    expect(
      await bench.error('{increment_counter value=$v topics_group_id=1 slug=1 ext_slug="view_count"}', {
        vars: { v: 'many' },
      }),
    ).toMatchObject({ code: 'E_BAD_ATTRIBUTE' });
    // Nothing was written by the refused calls.
    expect(await bench.render(`{sync_counter ids="1"}${VIEWS}`, { vars: { id: 1 } })).toBe('107');
  });

  it('takes sync_counter ids as an array or a comma-separated string, and refuses anything else', async () => {
    await bench.render(
      '{update_counter value=1 topics_group_id=1 slug=13 ext_slug="view_count"}{update_counter value=2 topics_group_id=1 slug=14 ext_slug="view_count"}',
    );
    expect(
      await bench.render(
        '{sync_counter ids=" 13 , 14,"}{assign_topics_detail var=a topics_id=13}{assign_topics_detail var=b topics_id=14}{$a.view_count},{$b.view_count}',
      ),
    ).toBe('1,2');
    expect(await bench.error('\n{sync_counter ids="13,x"}')).toMatchObject({ code: 'E_BAD_ATTRIBUTE', line: 2 });
    expect(
      await bench.error('{sync_counter ids=$ids}', { vars: { ids: Array.from({ length: 1001 }, (_, i) => i + 1) } }),
    ).toMatchObject({ code: 'E_BAD_ATTRIBUTE' });
    expect(await bench.error('{sync_counter ids=$ids}', { vars: { ids: true } })).toMatchObject({
      code: 'E_BAD_ATTRIBUTE',
    });
  });

  it('applies nothing when a sync fails in the middle', async () => {
    await bench.render(
      '{update_counter value=800 topics_group_id=1 slug=8 ext_slug="view_count"}{update_counter value=900 topics_group_id=1 slug=9 ext_slug="view_count"}',
    );
    // The database itself refuses the second content's write: a real failure halfway through the transaction.
    const trigger = `fail_${bench.site.tenant}`;
    if (backend.name === 'sqlite') {
      await bench.site.db.run(
        `CREATE TRIGGER ${trigger} BEFORE INSERT ON topic_counters WHEN NEW.tenant = '${bench.site.tenant}' AND NEW.topic_id = 9 BEGIN SELECT RAISE(ABORT, 'refused by the test'); END`,
      );
    } else {
      await bench.site.db.run(
        `CREATE FUNCTION ${trigger}() RETURNS trigger AS $$ BEGIN IF NEW.tenant = '${bench.site.tenant}' AND NEW.topic_id = 9 THEN RAISE EXCEPTION 'refused by the test'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql`,
      );
      await bench.site.db.run(
        `CREATE TRIGGER ${trigger} BEFORE INSERT ON topic_counters FOR EACH ROW EXECUTE FUNCTION ${trigger}()`,
      );
    }
    try {
      expect(await bench.error('{sync_counter ids="8,9"}')).toMatchObject({ code: 'E_HOST_FAILED' });
      expect(await views(8)).toBe('156');
      expect(await views(9)).toBe('163');
    } finally {
      await bench.site.db.run(
        backend.name === 'sqlite' ? `DROP TRIGGER ${trigger}` : `DROP TRIGGER ${trigger} ON topic_counters`,
      );
      if (backend.name === 'postgres') await bench.site.db.run(`DROP FUNCTION ${trigger}()`);
    }
    // The pending values survived the failed sync whole.
    expect(
      await bench.render(
        '{sync_counter ids="8,9"}{assign_topics_detail var=a topics_id=8}{assign_topics_detail var=b topics_id=9}{$a.view_count},{$b.view_count}',
      ),
    ).toBe('800,900');
  });
});
