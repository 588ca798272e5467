/**
 * {assign_favorite_cnt} on the sample site, whose clock is the example engine's (1700000000,
 * 2023-11-15 07:13:20 Asia/Tokyo): content 1 has six likes, four of them from the last week;
 * content 4 only a bookmark (action type 1), which is not a like.
 */
import { expect, it } from 'vitest';
import { eachBackend } from '../../site/support/backends.js';
import { siteBench } from '../../site/support/site-bench.js';

const count = (attrs: string): string => `{assign_favorite_cnt ${attrs} var=n}{$n}`;

eachBackend('{assign_favorite_cnt}', (backend) => {
  const s = siteBench(backend);

  it("counts everybody's likes of an item or of a module type; bookmarks are not likes", async () => {
    expect(await s.render(count('module_id=1'))).toBe('6');
    expect(await s.render(count(''))).toBe('15');
    expect(await s.render(count('module_id=4'))).toBe('0');
    expect(await s.render(count('module_type="comment" module_id=1'))).toBe('1');
  });

  it("time counts since a moment strtotime reads against the render's clock and time zone", async () => {
    expect(await s.render(count('module_id=1 time="-7 days"'))).toBe('4');
    // Midnight of 2023-11-10 in Asia/Tokyo is 1699542000: member 5's like (1699500000) is before it.
    expect(await s.render(count('module_id=1 time="2023-11-10"'))).toBe('3');
    expect(await s.render(count('module_id=1 time="+1 day"'))).toBe('0');
  });

  it('format="list" gives counts per item, the most liked first', async () => {
    expect(
      await s.render(
        '{assign_favorite_cnt format="list" time="-7 days" var=n}{foreach from=$n key=k item=v}{$k}={$v} {/foreach}',
      ),
    ).toBe('1=4 2=1 3=1 7=1 8=1 ');
  });

  it('a bad attribute is an error at its line', async () => {
    expect(await s.error('\n{assign_favorite_cnt time="next blue moon" var=n}')).toMatchObject({
      code: 'E_BAD_ATTRIBUTE',
      line: 2,
    });
    expect(await s.error('{assign_favorite_cnt format="csv" var=n}')).toMatchObject({ code: 'E_BAD_ATTR' });
    expect(await s.error('{assign_favorite_cnt module_type=$t var=n}', { vars: { t: 'topics; --' } })).toMatchObject({
      code: 'E_BAD_ATTRIBUTE',
    });
    expect(await s.error('{assign_favorite_cnt module_id=1}')).toMatchObject({ code: 'E_MISSING_ATTR' });
  });
});
