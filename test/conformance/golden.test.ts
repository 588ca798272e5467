/**
 * Acceptance bar: every template case of the golden corpus (real Smarty 2.6.33 on PHP 8.2),
 * rendered through the real path. `core` and `error` belong to the language; `modifier` cases
 * need the modifier families.
 */
import { describe, it } from 'vitest';
import { loadGolden } from '../support/golden.js';
import { testEngine } from '../support/engine.js';
import { expectLikeSmarty2 } from '../support/smarty2-case.js';

const cases = loadGolden().filter((c) => c.area !== 'php');
const engine = testEngine();

describe('golden corpus (Smarty 2.6.33, PHP 8.2)', () => {
  for (const c of cases) {
    it(`${c.id}${c.note ? `: ${c.note.slice(0, 60)}` : ''}`, async () => {
      await expectLikeSmarty2(engine, { ...c, template: c.template!, vars: c.varsJson });
    });
  }
});
