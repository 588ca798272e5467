/** The golden corpus cases that exercise the format and date modifiers, read with the small template reader. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fromJS, type Value } from '../../../src/value/value.js';
import type { ModifierContext, ModifierPlugin } from '../../../src/plugins/types.js';
import { plugins as formatPlugins } from '../../../src/plugins/format/index.js';
import { plugins as datePlugins } from '../../../src/plugins/date/index.js';
import { render } from '../../support/mini-template.js';
import { testModifierContext } from '../../support/plugin-context.js';

const IDS = [
  'modifier-016',
  'modifier-017',
  'modifier-018',
  'modifier-019',
  'modifier-020',
  'modifier-021',
  'modifier-022',
  'modifier-023',
  'modifier-065',
  'modifier-066',
  'modifier-067',
  'modifier-069',
  'modifier-109',
  'modifier-110',
  'modifier-115',
];
const modifiers = new Map<string, ModifierPlugin>();
for (const p of [...formatPlugins, ...datePlugins]) if (p.kind === 'modifier') modifiers.set(p.name, p);

const cases = readFileSync('/work/shared/conformance/smarty2-golden.jsonl', 'utf8')
  .split('\n')
  .filter((l) => l.trim())
  .map(
    (l) =>
      JSON.parse(l) as {
        id: string;
        template: string;
        vars?: Record<string, unknown>;
        expect: string;
        timezone?: string;
      },
  )
  .filter((c) => IDS.includes(c.id));

describe('golden corpus: format and date modifiers', () => {
  it('has every selected case', () => expect(cases.map((c) => c.id).sort()).toEqual([...IDS].sort()));
  for (const c of cases) {
    it(c.id, () => {
      const ctx: ModifierContext = testModifierContext({ timezone: c.timezone ?? 'Asia/Tokyo' });
      const apply = (name: string, input: Value, args: Value[]) => {
        const p = modifiers.get(name)!;
        return p.run(
          input,
          p.params.map((q, k) => (k < args.length ? args[k] : (q.default ?? null))).concat(args.slice(p.params.length)),
          ctx,
        );
      };
      const vars = Object.fromEntries(Object.entries(c.vars ?? {}).map(([k, v]) => [k, fromJS(v)]));
      expect(render(c.template, vars, apply, (n) => modifiers.has(n))).toBe(c.expect);
    });
  }
});
