/**
 * The declared examples of the php-family modifiers print what they claim, evaluated with
 * our modifiers and, for the PHP functions, with PHP itself (same template, PHP applying the
 * function). $smarty.const names must be in src/php/constants.ts, as the engine reads
 * them from there.
 */
import { describe, expect, it } from 'vitest';
import { PhpArray, fromJS, type Value } from '../../../src/value/value.js';
import { constantValue } from '../../../src/php/constants.js';
import { fromTagged } from '../../support/php-oracle.js';
import { phpGolden, phpGoldenLookup } from '../../support/php-golden.js';
import { render } from '../../support/mini-template.js';
import { modifiers, runModifier, toArg } from './support.js';

/** Constants become literals; `{if !c}a{else}b{/if}` becomes `{if c}b{else}a{/if}` for the mini reader. */
function prepare(template: string): string {
  const withConsts = template.replace(/\$smarty\.const\.(\w+)/g, (_, name: string) => {
    const v = constantValue(name);
    if (typeof v !== 'number') throw new Error(`constant ${name} is not in src/php/constants.ts`);
    return String(v);
  });
  return withConsts.replace(
    /\{if !([^{}]*)\}(.*?)(?:\{else\}(.*?))?\{\/if\}/gs,
    (_, c: string, yes: string, no = '') => `{if ${c}}${no}{else}${yes}{/if}`,
  );
}

// PHP's answers, committed in test/fixtures/php/plugins/php/examples.json.
const oracle = phpGoldenLookup('plugins/php/examples');

function phpApply(name: string, input: Value, args: Value[]): Value {
  const r = oracle({ fn: name, args: [input, ...args].map(toArg) });
  if (!r.ok) throw new Error(r.error);
  return fromTagged(r.value!);
}

describe('php-family examples are true', () => {
  for (const p of modifiers.values()) {
    p.examples.forEach((ex, i) => {
      const vars = Object.fromEntries(Object.entries(ex.vars ?? {}).map(([k, v]) => [k, fromJS(v)]));
      const template = prepare(ex.template);
      it(`${p.name} #${i + 1}: ${ex.template}`, () => {
        expect(
          render(
            template,
            vars,
            (n, v, a) => runModifier(n, v, a),
            (n) => modifiers.has(n),
          ),
        ).toBe(ex.output);
        if (p.origin === 'php' && p.name !== 'unset') {
          expect(render(template, vars, phpApply, (n) => modifiers.has(n))).toBe(ex.output);
        }
      });
    });
  }
});

describe('defined and unset', () => {
  const names = [
    'JSON_PRETTY_PRINT',
    'FILTER_VALIDATE_INT',
    'ENT_QUOTES',
    'PHP_EOL',
    'json_pretty_print',
    'NO_SUCH_CONSTANT',
    '',
  ];
  const results = phpGolden(
    'plugins/php/defined',
    names.map((n) => ({ fn: 'defined', args: [n] })),
  );
  names.forEach((n, i) => {
    it(`defined('${n}') is PHP's answer for constants in the table`, () => {
      expect(runModifier('defined', n)).toBe(results[i].value);
    });
  });
  it('host constants are not visible to defined', () => {
    expect(runModifier('defined', 'ROOT_URL')).toBe(false);
  });
  it('unset yields null for any input', () => {
    for (const v of ['x', 1, PhpArray.fromList([1]), null]) expect(runModifier('unset', v)).toBe(null);
  });
});
