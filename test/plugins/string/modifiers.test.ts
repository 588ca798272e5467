/**
 * Every string and html modifier against PHP 8.2: PHP functions are called as they are,
 * Smarty 2 and platform modifiers through their PHP bodies in smarty2-modifiers.php. PHP's
 * answers are committed in test/fixtures/php/plugins/string/modifiers.json.
 */
import { describe, expect, it } from 'vitest';
import type { Tagged } from '../../support/php-oracle.js';
import { phpGolden } from '../../support/php-golden.js';
import { CASES, type Case } from './cases.js';
import { modifiers, outcome, phpCall, runModifier, ctxFor, SMARTY2_NOTE } from './support.js';

/** The PHP function that computes the same thing as the modifier. */
function phpFunctionFor(c: Case): string {
  return modifiers.get(c.mod)!.origin === 'php' ? c.mod : `smarty_modifier_${c.mod}`;
}

const SORT_NAME: Case[] = [
  ['山田', '太郎', 'ja'],
  ['Smith', 'John', 'en'],
  ['Smith', 'John', 'fr'],
  ['Smith', '', 'en'],
  ['', '花子', 'ja'],
  [null, 'x', 'ja'],
].map(([last, first, lang]) => ({ mod: 'sort_name', input: last, args: [first], lang: lang as string }));

const ALL = [...CASES, ...SORT_NAME];

function label(c: Case): string {
  const s = JSON.stringify([c.input, ...(c.args ?? [])], (_k, v) =>
    v && typeof v === 'object' && 'list' in v ? '[array]' : v,
  );
  return `${c.mod} ${s.length > 90 ? s.slice(0, 90) + '…' : s}`;
}

describe('string and html modifiers match PHP 8.2', () => {
  const calls = ALL.map((c) => {
    const fn = phpFunctionFor(c);
    const args = [c.input, ...(c.args ?? [])];
    if (c.mod === 'sort_name') {
      while (args.length < 2) args.push('');
      args.push(c.lang ?? 'ja');
    }
    return phpCall(fn, args);
  });
  const results = phpGolden('plugins/string/modifiers', calls, { note: SMARTY2_NOTE, labels: ALL.map(label) });

  it('covers every modifier', () => {
    const tested = new Set(ALL.map((c) => c.mod));
    expect([...modifiers.keys()].filter((m) => !tested.has(m))).toEqual([]);
    expect(ALL.length).toBeGreaterThan(300);
  });

  ALL.forEach((c, i) => {
    it(label(c), () => {
      const r = results[i];
      const expected: Tagged | 'error' = r.ok ? r.value! : 'error';
      const ours = outcome(() => runModifier(c.mod, c.input, c.args ?? [], ctxFor(c.lang)));
      expect(ours, r.ok ? undefined : r.error).toEqual(expected);
    });
  });
});
