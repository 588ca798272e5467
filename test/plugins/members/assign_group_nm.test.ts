/** {assign_group_nm} on the sample site: languages and their fallback, a missing group, bad attributes. */
import { expect, it } from 'vitest';
import { eachBackend } from '../../site/support/backends.js';
import { siteBench } from '../../site/support/site-bench.js';

eachBackend('{assign_group_nm}', (backend) => {
  const s = siteBench(backend);

  it("names a group in the site's language by default, or in lang", async () => {
    expect(
      await s.render('{assign_group_nm group_id=3 var=g}{$g}|{assign_group_nm group_id=3 lang="en" var=g}{$g}'),
    ).toBe('プレミアム会員|Premium members');
  });

  it("falls back to the site's language for a language the group has no name in", async () => {
    expect(await s.render('{assign_group_nm group_id=2 lang="fr" var=g}{$g}')).toBe('編集部');
  });

  it('a group the site does not have gives null; group_id may come from a variable', async () => {
    expect(await s.render('{assign_group_nm group_id=$id var=g}{if $g === null}null{/if}', { vars: { id: 99 } })).toBe(
      'null',
    );
    expect(await s.render('{assign_group_nm group_id=$id var=g}{$g}', { vars: { id: '4' } })).toBe('システム管理');
  });

  it('a bad attribute is an error at its line', async () => {
    expect(await s.error('\n{assign_group_nm group_id=1 lang=$l var=g}', { vars: { l: 'english' } })).toMatchObject({
      code: 'E_BAD_ATTRIBUTE',
      line: 2,
    });
    expect(await s.error('{assign_group_nm group_id=$id var=g}', { vars: { id: '1 OR 1=1' } })).toMatchObject({
      code: 'E_BAD_ATTRIBUTE',
      line: 1,
    });
    expect(await s.error('{assign_group_nm var=g}')).toMatchObject({ code: 'E_MISSING_ATTR' });
    // `id` is the platform's other name for group_id; attributes have no aliases here (docs/site.md).
    expect(await s.error('{assign_group_nm id=1 var=g}')).toMatchObject({
      code: 'E_MISSING_ATTR',
      message: expect.stringContaining('group_id'),
    });
  });
});
