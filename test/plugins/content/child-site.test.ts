/** {child_site} on both backends: a child site of the render's site, by key; anything else is null. */
import { expect, it } from 'vitest';
import { eachBackend } from '../../site/support/backends.js';
import { siteBench } from '../../site/support/site-bench.js';

eachBackend('child_site', (backend) => {
  const bench = siteBench(backend);

  it("assigns the child site: key, name in the site's language, url, language, time zone, open flag, creation time", async () => {
    const json = await bench.render('{child_site site_key="child" var=c}{$c|@json_encode}');
    expect(JSON.parse(json)).toEqual({
      site_key: 'child',
      site_nm: 'サポートサイト',
      url: 'http://child.localhost:8080',
      lang: 'ja',
      timezone: 'Asia/Tokyo',
      open_flg: 1,
      inst_ymdhi: '2023-10-01T09:00:00+09:00',
    });
  });

  it('gives null for a key that is not a child of this site (its own key included)', async () => {
    expect(
      await bench.render('{child_site site_key=$k var=c}{if $c === null}null{/if}', { vars: { k: bench.site.tenant } }),
    ).toBe('null');
    expect(await bench.render('{child_site site_key="../child" var=c}{if $c === null}null{/if}')).toBe('null');
  });

  it('refuses a missing site_key at its line', async () => {
    expect(await bench.error('\n{child_site var=c}')).toMatchObject({ code: 'E_MISSING_ATTR', line: 2 });
    expect(await bench.error('{child_site var=c site_key=$k}', { vars: { k: 'x'.repeat(64) } })).toMatchObject({
      code: 'E_BAD_ATTRIBUTE',
    });
  });
});
