/**
 * Acceptance bar: every template case of the golden corpus (real Smarty 2.6.33 on PHP 8.2),
 * rendered through the real path. `core` and `error` belong to the language; `modifier` cases
 * need the modifier families.
 */
import { describe, expect, it } from 'vitest';
import { loadGolden } from '../support/golden.js';
import { testEngine } from '../support/engine.js';
import { toBytes } from '../../src/runtime/bytes.js';

const cases = loadGolden().filter((c) => c.area !== 'php');
const engine = testEngine();

describe('golden corpus (Smarty 2.6.33, PHP 8.2)', () => {
  for (const c of cases) {
    it(`${c.id}${c.note ? `: ${c.note.slice(0, 60)}` : ''}`, async () => {
      const render = engine.render(c.template!, { name: `${c.id}.tpl`, vars: c.varsJson, objects: c.objects ?? false });
      if (c.error) {
        await expect(render).rejects.toMatchObject({ name: 'TemplateError' });
        return;
      }
      const { output } = await render;
      if (c.expect_base64) expect(Buffer.from(toBytes(output)).toString('base64')).toBe(c.expect_base64);
      else expect(output).toBe(c.expect);
    });
  }
});
