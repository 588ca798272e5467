/**
 * Every plugin declares runnable examples; each one is rendered through the real path and
 * must print exactly what the declaration says.
 */
import { describe, expect, it } from 'vitest';
import { ALL_PLUGINS } from '../../src/plugins/registry.js';
import { testEngine, FIXED_NOW, FIXED_SEED } from '../support/engine.js';
import { createEngine } from '../../src/index.js';

const engine = testEngine();

describe('plugin examples', () => {
  it('every plugin has at least one example', () => {
    const missing = ALL_PLUGINS.filter((p) => p.examples.length === 0).map((p) => p.name);
    expect(missing).toEqual([]);
  });

  for (const p of ALL_PLUGINS) {
    p.examples.forEach((ex, i) => {
      it(`${p.kind} ${p.name} #${i + 1}: ${ex.template}`, async () => {
        const e = ex.functions ? createEngine({ now: () => FIXED_NOW, seed: FIXED_SEED, functions: ex.functions, workers: 0 }) : engine;
        try {
          const { output } = await e.render(ex.template, { name: `${p.name}-example.tpl`, vars: ex.vars as Record<string, unknown> | undefined });
          expect(output).toBe(ex.output);
        } finally {
          if (e !== engine) e.close();
        }
      });
    });
  }
});
