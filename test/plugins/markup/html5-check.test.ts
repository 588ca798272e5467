import { describe, expect, it } from 'vitest';
import html5Check from '../../../src/plugins/markup/html5_check.js';
import { MAX_PROBLEMS, checkHtml5 } from '../../../src/php/html5/checker.js';
import { PhpArray } from '../../../src/value/value.js';
import { LimitError } from '../../../src/value/limits.js';
import { Random } from '../../../src/runtime/random.js';
import { testPluginContext } from '../../support/plugin-context.js';
import { HTML5_CASES } from './html5-cases.js';

describe('html5_check rules', () => {
  for (const [html, expected] of HTML5_CASES) {
    it(JSON.stringify(html), () => {
      expect(checkHtml5(html).map((p) => `${p.line}:${p.column} ${p.code}`)).toEqual(expected);
    });
  }
});

describe('html5_check plugin', () => {
  it('stores {line, column, code, message} arrays in var, html5_errors by default', () => {
    const ctx = testPluginContext();
    html5Check.run!({ html: 'x\n<foo>' }, ctx);
    const list = ctx.scope.html5_errors as PhpArray;
    expect(list).toBeInstanceOf(PhpArray);
    expect(list.isList).toBe(true);
    const e = list.get(0) as PhpArray;
    expect(e.keys()).toEqual(['line', 'column', 'code', 'message']);
    expect([e.get('line'), e.get('column'), e.get('code'), e.get('message')]).toEqual([
      2,
      1,
      'unknown-element',
      '<foo> is not an HTML element',
    ]);
  });

  it('gives an empty list for valid HTML and honours var', () => {
    const ctx = testPluginContext();
    html5Check.run!({ html: '<p>ok</p>', var: 'r' }, ctx);
    expect((ctx.scope.r as PhpArray).size).toBe(0);
  });

  it('refuses input beyond the size limit', () => {
    expect(() => html5Check.run!({ html: 'x'.repeat(2 * 1024 * 1024 + 1) }, testPluginContext())).toThrow(LimitError);
  });

  it('stops after MAX_PROBLEMS problems and says so', () => {
    const r = checkHtml5('&foo;'.repeat(5000));
    expect(r.length).toBe(MAX_PROBLEMS + 1);
    expect(r[r.length - 1].code).toBe('too-many-errors');
  });

  // Linear, this takes 1-2 s; a pass over the tag's earlier attributes for each one (the
  // duplicate check) makes it about 40 s, far past the test's timeout.
  it('stays linear on large inputs', () => {
    const big =
      '<div class="a" id=b>x &amp; y<br></div>'.repeat(40000) +
      '<p ' +
      Array.from({ length: 150_000 }, (_, k) => `a${k}=1`).join(' ') +
      '>';
    expect(checkHtml5(big)).toEqual([]);
  }, 10_000);
});

describe('html5_check fuzz', () => {
  const PIECES = [
    '<',
    '>',
    '/',
    '!',
    '-',
    '--',
    '&',
    '#',
    'x',
    ';',
    '=',
    '"',
    "'",
    '`',
    ' ',
    '\n',
    '\r',
    '\t',
    '\u0000',
    '\uD800',
    '😀',
    'a',
    'div',
    'p',
    'br',
    'script',
    'svg',
    '![CDATA[',
    ']]>',
    '<!--',
    '-->',
    '<!DOCTYPE html>',
    'amp',
    'copy',
    '#x41',
    '?',
    'li',
    'table',
    'td',
    '</',
    '/>',
    'textarea',
    'plaintext',
  ];
  it('never throws and always returns well-formed problems for 3000 random inputs', () => {
    const rng = new Random([9, 8, 7, 6, 5, 4, 3, 2, 1, 2, 3, 4, 5, 6, 7, 8]);
    for (let k = 0; k < 3000; k++) {
      let html = '';
      for (let n = rng.int(0, 40); n > 0; n--) html += PIECES[rng.int(0, PIECES.length - 1)];
      const ctx = testPluginContext();
      html5Check.run!({ html }, ctx);
      const list = ctx.scope.html5_errors;
      expect(list).toBeInstanceOf(PhpArray);
      for (const e of (list as PhpArray).values()) {
        const p = e as PhpArray;
        expect(Number.isInteger(p.get('line')) && (p.get('line') as number) >= 1).toBe(true);
        expect(Number.isInteger(p.get('column')) && (p.get('column') as number) >= 1).toBe(true);
        expect(typeof p.get('code')).toBe('string');
        expect(typeof p.get('message')).toBe('string');
      }
    }
  });
});
