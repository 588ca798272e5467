/** Every fixture under test/fixtures, through the real path: compile to text, run in isolated-vm. */
import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { loadFixtures } from '../support/fixtures.js';
import { testEngine } from '../support/engine.js';
import { createEngine } from '../../src/index.js';
import { FIXED_NOW, FIXED_SEED } from '../support/engine.js';

const fixtures = loadFixtures(fileURLToPath(new URL('../fixtures', import.meta.url)));
const plain = testEngine();

describe('template fixtures', () => {
  for (const f of fixtures) {
    it(`${f.file}: ${f.title}`, async () => {
      const hasIncludes = Object.keys(f.includes).length + Object.keys(f.functions).length > 0;
      const engine = hasIncludes
        ? createEngine({
            now: () => FIXED_NOW,
            seed: FIXED_SEED,
            templates: f.includes,
            functions: f.functions,
            workers: 0,
          })
        : plain;
      try {
        const render = engine.render(f.template, {
          name: f.file.replace(/\.test\.txt$/, '.tpl'),
          vars: f.data ?? undefined,
        });
        if (f.error) {
          const err = await render.then(
            () => null,
            (e: unknown) => e,
          );
          expect(err, 'expected an error').toMatchObject({ name: 'TemplateError', code: f.error.code });
          if (f.error.line) expect(err).toMatchObject({ line: f.error.line, column: f.error.column });
        } else {
          expect((await render).output).toBe(f.expect);
        }
      } finally {
        if (hasIncludes) await engine.close();
      }
    });
  }
});
