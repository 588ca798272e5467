/**
 * The multi-page benchmark's pages (bench/pages/pages.ts): each page's hand-written function, its
 * Eta template and smartcage's render agree byte for byte, as `npm run bench:pages` checks before
 * it times anything; with SMARTY2_DIR set, Smarty 2.6.33 on PHP agrees too.
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { helpers, pages } from '../../bench/pages/pages.js';
import { escapeHtml } from '../../bench/engines/hand-written.js';
import { createEngine } from '../../src/index.js';

const require = createRequire(import.meta.url);

describe('bench/pages', () => {
  const all = pages();

  it('has the five pages of issue 35', () => {
    expect(all.map((p) => p.name)).toEqual(['list', 'mail', 'json', 'ja', 'section']);
  });

  for (const p of all) {
    it(`${p.name}: Eta and smartcage (workers 0) give the hand-written output`, async () => {
      const want = p.hand(p.vars);
      const { Eta } = require('eta') as typeof import('eta');
      const trim = p.name === 'list' ? {} : { autoTrim: false as const };
      const eta = new Eta({ autoEscape: p.etaEscapes, escapeFunction: escapeHtml, useWith: false, ...trim });
      expect(
        eta.compile(p.eta).call(eta, {
          ...p.vars,
          h: helpers,
          ymd: (t: number) => Object.values(helpers.fields(t, 0)).slice(0, 3).join('-'),
        }),
      ).toBe(want);
      const e = createEngine({ workers: 0, timezone: p.timezone });
      try {
        expect((await e.render(p.template, { name: `${p.name}.tpl`, vars: p.vars })).output).toBe(want);
      } finally {
        await e.close();
      }
    });
  }

  it.skipIf(!process.env.SMARTY2_DIR)('Smarty 2.6.33 on PHP gives the hand-written output on every page', () => {
    const job = JSON.stringify({
      renders: 1,
      pages: all.map((p) => ({
        name: p.name,
        template: p.template,
        vars: JSON.stringify(p.vars),
        timezone: p.timezone,
      })),
    });
    const r = spawnSync('php', ['bench/pages/smarty2.php'], { input: job, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    const answer = JSON.parse(r.stdout) as { pages: { name: string; output: string }[] };
    for (const p of all) expect(answer.pages.find((x) => x.name === p.name)?.output, p.name).toBe(p.hand(p.vars));
  });
});
