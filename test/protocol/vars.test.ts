/**
 * The variables' wire form (src/protocol/vars.ts): what an embedder passes becomes one format,
 * and the isolate's decoder takes the four formats and refuses every other shape with E_BAD_VARS.
 */
import { describe, expect, it } from 'vitest';
import { decodeVars, renderVars, VarsError, type RenderVars } from '../../src/protocol/vars.js';

describe('renderVars', () => {
  it('names the form the embedder gave', () => {
    expect(renderVars(undefined)).toEqual({ format: 'none' });
    expect(renderVars(null, true)).toEqual({ format: 'none' });
    expect(renderVars('{"a":1}', true)).toEqual({ format: 'json', text: '{"a":1}', objects: true });
    const value = { a: 1 };
    const plain = renderVars(value);
    expect(plain).toEqual({ format: 'plain', value, objects: false });
    expect(plain.format === 'plain' && plain.value).toBe(value);
  });
});

describe('decodeVars', () => {
  const good: RenderVars[] = [
    { format: 'none' },
    { format: 'plain', value: { a: [1] }, objects: false },
    { format: 'json', text: '{}', objects: true },
    { format: 'plain-json', text: '{"a":1}', objects: false },
  ];
  it.each(good.map((v) => [v.format, v] as const))('takes %s', (_, v) => {
    expect(decodeVars(structuredClone(v))).toEqual(v);
  });

  const bad: [string, unknown][] = [
    ['nothing', undefined],
    ['null', null],
    ['a string', '{"a":1}'],
    ['the old plain object of names', { a: 1 }],
    ['an unknown format', { format: 'yaml', text: 'a: 1', objects: false }],
    ['a format that is not a string', { format: 1 }],
    ['json without its text', { format: 'json', objects: false }],
    ['plain-json whose text is data', { format: 'plain-json', text: { a: 1 }, objects: false }],
    ['plain whose value is a list', { format: 'plain', value: [1], objects: false }],
    ['plain whose value is text', { format: 'plain', value: '{}', objects: false }],
    ['no objects flag', { format: 'plain', value: {} }],
    ['an objects flag that is not a boolean', { format: 'json', text: '{}', objects: 1 }],
  ];
  it.each(bad)('refuses %s', (_, x) => {
    let err: unknown;
    try {
      decodeVars(x);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(VarsError);
    expect((err as VarsError).code).toBe('E_BAD_VARS');
  });
});
