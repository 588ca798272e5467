/** {add} / {subtract}: PHP 8's `+` / `-` on the variable, compared with live PHP. */
import { describe, expect, it } from 'vitest';
import { callPhp, toTagged } from '../../support/php-oracle.js';
import add from '../../../src/plugins/util/add.js';
import subtract from '../../../src/plugins/util/subtract.js';
import { PhpArray, float, type Value } from '../../../src/value/value.js';
import { Gen, makeCtx, phpLiteral, run } from './support.js';

const FIXED: Value[] = [
  null,
  true,
  false,
  0,
  1,
  -1,
  5,
  123456789,
  -987654321,
  2 ** 52,
  float(0),
  float(1),
  0.5,
  -2.25,
  1e20,
  1.0e-7,
  '0',
  '5',
  '-3',
  '1.5',
  ' 42',
  '42 ',
  '1e3',
  '0x1A',
  '.5',
  '7.',
  '5 apples',
  'abc',
  '',
  '１２',
];

const g = new Gen(9);
const operands: Value[] = [...FIXED];
for (let i = 0; i < 40; i++) {
  const n = g.int(-1_000_000, 1_000_000);
  operands.push([n, n / 8, String(n), `${n / 4}`][i % 4]);
}

interface Case {
  op: '+' | '-';
  left: Value;
  right: Value;
}
const cases: Case[] = [];
for (let i = 0; i < 200; i++)
  cases.push({ op: i % 2 ? '-' : '+', left: operands[i % operands.length], right: g.pick(operands) });

const php = callPhp(
  cases.map((c) => ({ fn: '__eval', args: [`return ${phpLiteral(c.left)} ${c.op} ${phpLiteral(c.right)};`] })),
);

describe('add / subtract against php', () => {
  it.each(cases.map((c, i) => [i, JSON.stringify(c.left), c.op, JSON.stringify(c.right)] as const))(
    '#%i %s %s %s',
    (i) => {
      const c = cases[i];
      const ctx = makeCtx({ vars: c.left === null ? {} : { x: c.left } });
      run(c.op === '+' ? add : subtract, { var: 'x', value: c.right }, ctx);
      if (!php[i].ok) {
        // PHP throws a TypeError: the variable is left as it was, with a warning.
        expect(php[i].error).toMatch(/TypeError/);
        expect(ctx.scope.x ?? null).toBe(c.left);
        expect(ctx.warnings.length).toBe(1);
        return;
      }
      expect(toTagged(ctx.scope.x)).toEqual(php[i].value);
    },
  );

  it('updates a nested variable in place and counts a missing one as 0', () => {
    const ctx = makeCtx({ vars: { m: PhpArray.fromEntries([['total', 10]]) } });
    run(add, { var: 'm.total', value: 5 }, ctx);
    run(subtract, { var: 'm.missing', value: 2 }, ctx);
    const m = ctx.scope.m as PhpArray;
    expect(m.get('total')).toBe(15);
    expect(m.get('missing')).toBe(-2);
  });

  it('refuses arrays like PHP 8 (TypeError): unchanged, warned', () => {
    const arr = PhpArray.fromList([1]);
    const ctx = makeCtx({ vars: { x: 3 } });
    run(add, { var: 'x', value: arr }, ctx);
    expect(ctx.scope.x).toBe(3);
    expect(ctx.warnings.length).toBe(1);
  });
});
