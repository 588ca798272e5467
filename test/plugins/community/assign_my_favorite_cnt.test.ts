/**
 * {assign_my_favorite_cnt} on the sample site: member 2 likes contents 1, 2, 3, 5 and 8 and
 * bookmarked 4 and 10; the visitor with cookie id visitor-7f3a... likes contents 1, 3 and 7.
 * Always the render's member, or the browser's cookie id with cookie_flg=1 (a cookie jar given
 * here, as an embedder gives HostAdapters.cookies).
 */
import { expect, it } from 'vitest';
import { eachBackend } from '../../site/support/backends.js';
import { siteBench } from '../../site/support/site-bench.js';
import { SAMPLE_COOKIE_IDS } from '../../../src/site/sample/community.js';

const count = (attrs: string): string => `{assign_my_favorite_cnt ${attrs} var=n}{$n}`;
let cookie: string | null = null;
const jarRequests: string[] = [];

eachBackend('{assign_my_favorite_cnt}', (backend) => {
  const s = siteBench(backend, {
    host: (h) => ({
      ...h,
      cookies: {
        async get(_requestId, name) {
          jarRequests.push(name);
          return name === 'rcms_favorite_id' ? cookie : null;
        },
        async set() {},
      },
    }),
  });
  const noJar = siteBench(backend, { host: (h) => ({ ...h, cookies: undefined }) });

  it("counts the render's member's marks of the module type, or of one item", async () => {
    expect(await s.render(count(''), { memberId: 2 })).toBe('5');
    expect(await s.render(count('action_type="1"'), { memberId: 2 })).toBe('2');
    expect(await s.render(count('action_type=1'), { memberId: 2 })).toBe('2');
    expect(await s.render(count('module_id=1'), { memberId: 2 })).toBe('1');
    expect(await s.render(count('module_id=4'), { memberId: 2 })).toBe('0');
    expect(await s.render(count('module_type="member"'), { memberId: 2 })).toBe('1');
    expect(await s.render(count(''), { memberId: 3 })).toBe('2');
  });

  it("never another member's: no attribute names one, and without a member the count is 0", async () => {
    expect(await s.error('{assign_my_favorite_cnt member_id=3 var=n}', { memberId: 2 })).toMatchObject({
      code: 'E_UNKNOWN_ATTR',
    });
    expect(await s.render(count(''))).toBe('0');
  });

  it("cookie_flg=1 counts the favorites kept under the browser's cookie id, not the member's", async () => {
    cookie = SAMPLE_COOKIE_IDS[0];
    expect(await s.render(count('cookie_flg=1'))).toBe('3');
    expect(await s.render(count('cookie_flg=1'), { memberId: 2 })).toBe('3');
    expect(await s.render(count('cookie_flg=1 module_id=7'))).toBe('1');
    expect(jarRequests).toContain('rcms_favorite_id');
  });

  it('cookie_flg=1: no cookie, a malformed one, or a batch (no browser) count 0', async () => {
    for (const c of [null, '', 'short', "visitor-7f3a9c2e5b814d06' OR '1'='1", 'x'.repeat(65)]) {
      cookie = c;
      expect(await s.render(count('cookie_flg=1')), String(c)).toBe('0');
    }
    cookie = SAMPLE_COOKIE_IDS[0];
    expect(await s.render(count('cookie_flg=1'), { context: 'batch' })).toBe('0');
  });

  it('cookie_flg=1 on a host without a cookie jar says which adapter to pass', async () => {
    expect(await noJar.error('{assign_my_favorite_cnt cookie_flg=1 var=n}')).toMatchObject({
      code: 'E_HOST_CAPABILITY',
      message: expect.stringContaining('HostAdapters.cookies'),
    });
    expect(await noJar.render(count(''), { memberId: 2 })).toBe('5');
  });

  it('a bad attribute is an error at its line', async () => {
    expect(await s.error('\n{assign_my_favorite_cnt action_type="like" var=n}', { memberId: 2 })).toMatchObject({
      code: 'E_BAD_ATTRIBUTE',
      line: 2,
    });
    expect(await s.error('{assign_my_favorite_cnt cookie_flg=2 var=n}')).toMatchObject({ code: 'E_BAD_ATTRIBUTE' });
    expect(await s.error('{assign_my_favorite_cnt}')).toMatchObject({ code: 'E_MISSING_ATTR' });
  });
});
