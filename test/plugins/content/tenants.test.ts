/**
 * Two sample sites on one backend (on PostgreSQL, one database, as tenants of one deployment):
 * every content plugin answers from the render's own site only, whatever ids the other holds.
 */
import { expect, it } from 'vitest';
import { eachBackend } from '../../site/support/backends.js';
import { siteBench } from '../../site/support/site-bench.js';

eachBackend('content plugins keep to their tenant', (backend) => {
  const a = siteBench(backend);
  const b = siteBench(backend);

  it("never shows one site's contents, categories, tables or child sites to the other", async () => {
    await a.sql("UPDATE topic_texts SET subject = 'only on A' WHERE tenant = ? AND topic_id = 1");
    await a.sql(
      "INSERT INTO topics (tenant, id, group_id, slug, ymd, open_flg, inst_at, update_at) VALUES (?, 900, 1, 'a-only', '2023-10-30', 1, 0, 0)",
    );
    await a.sql('INSERT INTO topics_categories (tenant, id, group_id, names) VALUES (?, 900, 1, \'{"ja": "A only"}\')');
    await a.sql("INSERT INTO csv_tables (tenant, id, names, columns) VALUES (?, 900, '{}', '[\"k\"]')");
    await a.sql(
      "INSERT INTO child_sites (tenant, site_key, names, url, lang, timezone, inst_at) VALUES (?, 'a-child', '{}', 'http://a', 'ja', 'Asia/Tokyo', 0)",
    );
    const probe =
      '{assign_topics_detail var=t topics_id=1}{$t.subject}|{assign_topics_detail var=t topics_id=900}{if $t}900{/if}|' +
      '{assign_topics_category_list var=c topics_group_id=1}{$c|@count}|{assign_csv_table var=x csvtable_id=900}{$x|@count}|' +
      '{child_site site_key="a-child" var=s}{if $s}a-child{/if}|{api_method var=r model="Topics" method="list" method_params=$m}{$r.pageInfo.totalCnt}';
    expect(await a.render(probe, { vars: { m: { topics_group_id: 1 } } })).toBe('only on A|900|5|0|a-child|26');
    expect(await b.render(probe, { vars: { m: { topics_group_id: 1 } } })).toBe(
      '新しいウェブサイトを公開しました||4|0||25',
    );
  });

  it('keeps counters and their sync apart', async () => {
    await a.render('{update_counter value=1 topics_group_id=1 slug=20 ext_slug="view_count"}');
    await b.render('{update_counter value=2 topics_group_id=1 slug=20 ext_slug="view_count"}{sync_counter ids="20"}');
    expect(await a.render('{assign_topics_detail var=t topics_id=20}{$t.view_count}')).toBe('240');
    expect(await b.render('{assign_topics_detail var=t topics_id=20}{$t.view_count}')).toBe('2');
    expect(await a.render('{sync_counter ids="20"}{assign_topics_detail var=t topics_id=20}{$t.view_count}')).toBe('1');
  });
});
