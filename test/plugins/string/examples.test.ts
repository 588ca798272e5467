/**
 * Each plugin's examples: the documented output must be what our modifiers produce and what
 * PHP produces, evaluating the example template both ways (PHP: the PHP function, or the
 * modifier's PHP body from smarty2-modifiers.php, with PHP's own defaults).
 */
import { describe, expect, it } from 'vitest';
import { fromJS, type Value } from '../../../src/value/value.js';
import { fromTagged } from '../../support/php-oracle.js';
import { phpGoldenLookup } from '../../support/php-golden.js';
import { render } from '../../support/mini-template.js';
import { modifiers, phpCall, runModifier, SMARTY2_NOTE } from './support.js';

// PHP's answers, committed in test/fixtures/php/plugins/string/examples.json.
const oracle = phpGoldenLookup('plugins/string/examples', { note: SMARTY2_NOTE });

function phpApply(name: string, input: Value, args: Value[]): Value {
  const p = modifiers.get(name)!;
  const fn = p.origin === 'php' ? name : `smarty_modifier_${name}`;
  const extra = name === 'sort_name' ? [...args, ...(args.length ? [] : [''])].concat(['ja']) : args;
  const r = oracle(phpCall(fn, [input, ...extra]));
  if (!r.ok) throw new Error(r.error);
  return fromTagged(r.value!);
}

const known = (name: string) => modifiers.has(name);

describe('plugin examples are true', () => {
  for (const p of modifiers.values()) {
    p.examples.forEach((ex, i) => {
      const vars = Object.fromEntries(Object.entries(ex.vars ?? {}).map(([k, v]) => [k, fromJS(v)]));
      it(`${p.name} #${i + 1}: ${ex.template}`, () => {
        expect(render(ex.template, vars, (n, v, a) => runModifier(n, v, a), known)).toBe(ex.output);
        expect(render(ex.template, vars, phpApply, known)).toBe(ex.output);
      });
    });
  }
});
