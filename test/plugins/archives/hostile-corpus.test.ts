/**
 * {unzip} over the hostile corpus (test/support/archives/hostile-corpus.ts) on the local site of
 * each backend: every archive is refused with its code and the whole site folder (not only the
 * store's view of it) is unchanged, or it is contained: exactly the expected files appear, all
 * below dest, and the skipped entries are reported with their reasons.
 */
import path from 'node:path';
import { expect, it } from 'vitest';
import { parseVirtualPath } from '../../../src/host-adapters/files/virtual-path.js';
import { eachBackend } from '../../site/support/backends.js';
import { siteBench } from '../../site/support/site-bench.js';
import { HOSTILE_CORPUS } from '../../support/archives/hostile-corpus.js';
import { listTree, treeChanges } from '../../support/archives/store-listing.js';

const SHOW =
  '{foreach from=$unzip_result.files item=f}{$f}\n{/foreach}--\n{foreach from=$unzip_result.skipped item=s}{$s.reason}\n{/foreach}';

eachBackend('unzip: the hostile corpus', (backend) => {
  const bench = siteBench(backend);

  for (const c of HOSTILE_CORPUS) {
    it(`${c.id}: ${c.title}`, async () => {
      const site = bench.site;
      const src = `/files/g/corpus/${c.id}.zip`;
      await site.host.files!.writeAtomic(parseVirtualPath(src), await c.archive());
      const root = path.join(site.dir, 'files');
      const before = listTree(root);
      const dest = `/files/g/out/${c.id}`;
      const tpl = `{unzip src="${src}" dest="${dest}"}${SHOW}`;
      if ('code' in c.expect) {
        const e = await bench.error(tpl);
        expect(e).toMatchObject({ code: c.expect.code, line: 1 });
        expect(e.message).toContain(c.expect.says);
      } else {
        const out = await bench.render(tpl);
        const files = c.expect.files.map((f) => `${dest}/${f}`);
        expect(out).toBe(
          `${files.join('\n')}${files.length ? '\n' : ''}--\n${(c.expect.skipped ?? []).map((r) => `${r}\n`).join('')}`,
        );
      }
      const { added, removed } = treeChanges(before, listTree(root));
      expect(removed).toEqual([]);
      if ('code' in c.expect) {
        expect(added).toEqual([]);
      } else {
        const below = `g/out/${c.id}`;
        const expected = new Set(
          c.expect.files.flatMap((f) => {
            const parts = `${below}/${f}`.split('/');
            return parts.map((_, i) => parts.slice(0, i + 1).join('/'));
          }),
        );
        expect(added.filter((a) => !expected.has(a))).toEqual([]);
        for (const f of c.expect.files) expect(added).toContain(`${below}/${f}`);
      }
    });
  }
});
