/** Query strings and form bodies read as PHP reads them into $_GET / $_POST. */
import { describe, expect, it } from 'vitest';
import { MAX_INPUT_VARS, parseQuery } from '../../../src/site/api/query.js';

describe('parseQuery', () => {
  it.each([
    ['a=1&b=x+y&c=%E3%81%82', { a: '1', b: 'x y', c: 'あ' }],
    // Objects all the way: PHP arrays, whose keys 0, 1... make lists once in the template.
    ['l[]=a&l[]=b&m[k]=v&m[n][]=1', { l: { 0: 'a', 1: 'b' }, m: { k: 'v', n: { 0: '1' } } }],
    ['l[5]=a&l[]=b', { l: { 5: 'a', 6: 'b' } }],
    ['a.b=1&c d=2', { a_b: '1', c_d: '2' }],
    ['[x]=1&=2&a=1&a=2', { a: '2' }],
    ['', {}],
  ])('%s', (text, want) => {
    expect(parseQuery(text)).toEqual(want);
  });

  it('keeps names such as __proto__ as data', () => {
    const q = parseQuery('__proto__[polluted]=1&constructor=2');
    expect(Object.getPrototypeOf(q)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.keys(q)).toEqual(['__proto__', 'constructor']);
  });

  it('drops what is past max_input_vars', () => {
    const text = Array.from({ length: MAX_INPUT_VARS + 5 }, (_, i) => `v${i}=1`).join('&');
    expect(Object.keys(parseQuery(text))).toHaveLength(MAX_INPUT_VARS);
  });
});
