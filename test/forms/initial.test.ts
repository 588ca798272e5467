import { describe, expect, it } from 'vitest';
import { initialValue } from '../../src/forms/initial.js';
import type { JsonSchema } from '../../src/forms/types.js';

describe('initialValue: the spec rules', () => {
  it('1. default is the initial value', () => {
    expect(initialValue({ type: 'string', default: 'x' })).toBe('x');
    expect(initialValue({ type: 'string', enum: ['a', 'b'], default: 'b' })).toBe('b');
    expect(initialValue({ type: 'string', enum: [null, 'a'], default: 'a' })).toBe('a');
    expect(initialValue({ type: 'integer', enum: [1, 2, 3], default: 3 })).toBe(3);
    expect(initialValue({ type: 'boolean', default: true })).toBe(true);
    expect(initialValue({ type: 'number', default: 0 })).toBe(0);
  });
  it('2. without default, null when enum contains null', () => {
    expect(initialValue({ type: 'string', enum: [null, 'draft', 'published'] })).toBeNull();
    expect(initialValue({ type: ['string', 'null'], enum: ['a', null] })).toBeNull();
    expect(initialValue({ type: ['integer', 'null'], enum: [1, null, 2] })).toBeNull();
  });
  it('3. without default and null, enum[0]', () => {
    expect(initialValue({ type: 'string', enum: ['b', 'a'] })).toBe('b');
  });
  it('numeric enums without default select their first value', () => {
    expect(initialValue({ type: 'integer', enum: [3, 2, 1] })).toBe(3);
    expect(initialValue({ type: 'number', enum: [0.5, 1] })).toBe(0.5);
    expect(initialValue({ type: 'integer', enum: [0, 1] })).toBe(0);
  });
  it('a default of null is kept (it is "set")', () => {
    expect(initialValue({ type: ['string', 'null'], enum: ['a', null], default: null })).toBeNull();
  });
  it('defaults are copied, not shared', () => {
    const schema: JsonSchema = { type: 'object', default: { a: [1] } };
    const v = initialValue(schema) as { a: number[] };
    v.a.push(2);
    expect(schema.default).toEqual({ a: [1] });
  });
});

describe('initialValue: our decisions for the rest', () => {
  it.each<[string, JsonSchema, unknown]>([
    ['text', { type: 'string' }, ''],
    ['nullable text', { type: ['string', 'null'] }, null],
    ['textarea', { type: 'string', format: 'textarea' }, ''],
    ['rich text', { type: 'string', format: 'html' }, ''],
    ['file path', { type: 'string', format: 'file-manager' }, ''],
    ['date', { type: 'string', format: 'date' }, null],
    ['date-time', { type: 'string', format: 'date-time' }, null],
    ['number', { type: 'number' }, null],
    ['integer', { type: 'integer' }, null],
    ['checkbox', { type: 'boolean' }, false],
    ['comma list', { type: 'array', items: { type: 'string' }, minItems: 2 }, []],
    ['multi-select', { type: 'array', items: { type: 'string', enum: ['a'] }, minItems: 1 }, []],
    ['cards', { type: 'array', items: { type: 'object', properties: {} } }, []],
    ['object without properties', { type: 'object' }, {}],
  ])('%s', (_n, schema, expected) => {
    expect(initialValue(schema)).toEqual(expected);
  });

  it('objects recurse into their properties', () => {
    expect(
      initialValue({
        type: 'object',
        properties: {
          a: { type: 'string' },
          b: { type: 'integer', enum: [5, 6] },
          c: { type: 'object', properties: { d: { type: 'boolean' } } },
        },
      }),
    ).toEqual({ a: '', b: 5, c: { d: false } });
  });

  it('minItems forces cards, each the initial value of items', () => {
    expect(
      initialValue({
        type: 'array',
        minItems: 2,
        items: {
          type: 'object',
          properties: { n: { type: 'string', default: 'x' }, k: { type: 'integer', enum: [1] } },
        },
      }),
    ).toEqual([
      { n: 'x', k: 1 },
      { n: 'x', k: 1 },
    ]);
  });

  it('an array default wins over minItems', () => {
    expect(initialValue({ type: 'array', minItems: 2, default: [], items: { type: 'object' } })).toEqual([]);
  });
});
