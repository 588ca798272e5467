import { describe, expect, it } from 'vitest';
import { detectControl } from '../../src/forms/detect.js';
import type { ControlKind, JsonSchema } from '../../src/forms/types.js';

// One row per line of the spec's "Automatic field type detection" table.
const table: Array<[string, JsonSchema, ControlKind]> = [
  ['string', { type: 'string' }, 'text'],
  ['string + enum', { type: 'string', enum: ['a', 'b'] }, 'select'],
  ['string + format date', { type: 'string', format: 'date' }, 'date'],
  ['string + format date-time', { type: 'string', format: 'date-time' }, 'datetime'],
  ['string + format file-manager', { type: 'string', format: 'file-manager' }, 'file-manager'],
  ['string + format html', { type: 'string', format: 'html' }, 'rich-text'],
  ['string + format textarea', { type: 'string', format: 'textarea' }, 'textarea'],
  ['number', { type: 'number' }, 'number'],
  ['integer', { type: 'integer' }, 'number'],
  ['number + enum', { type: 'number', enum: [1.5, 2] }, 'number-select'],
  ['integer + enum', { type: 'integer', enum: [1, 2] }, 'number-select'],
  ['boolean', { type: 'boolean' }, 'checkbox'],
  ['array + items.type string', { type: 'array', items: { type: 'string' } }, 'comma-textarea'],
  ['array + items.enum', { type: 'array', items: { type: 'string', enum: ['a'] } }, 'multi-select'],
  ['array + items.type object', { type: 'array', items: { type: 'object', properties: {} } }, 'cards'],
  ['object', { type: 'object', properties: { a: { type: 'string' } } }, 'json-textarea'],
];

describe('detectControl: the spec table', () => {
  it.each(table)('%s', (_name, schema, kind) => {
    expect(detectControl(schema)).toBe(kind);
  });

  it.each(table)('%s as a union with null', (_name, schema, kind) => {
    expect(detectControl({ ...schema, type: [schema.type as 'string', 'null'] })).toBe(kind);
    expect(detectControl({ ...schema, type: ['null', schema.type as 'string'] })).toBe(kind);
  });
});

describe('detectControl: precedence and fallbacks', () => {
  it('enum wins over format', () => {
    expect(detectControl({ type: 'string', format: 'date', enum: ['2024-01-01'] })).toBe('select');
  });
  it('items.enum wins over items.type', () => {
    expect(detectControl({ type: 'array', items: { type: 'integer', enum: [1, 2] } })).toBe('multi-select');
    expect(detectControl({ type: 'array', items: { enum: ['x'] } })).toBe('multi-select');
  });
  it('nullable item types keep the array control', () => {
    expect(detectControl({ type: 'array', items: { type: ['string', 'null'] } })).toBe('comma-textarea');
    expect(detectControl({ type: 'array', items: { type: ['object', 'null'] } })).toBe('cards');
  });
  it('an enum with null in a [string, null] union is a select', () => {
    expect(detectControl({ type: ['string', 'null'], enum: [null, 'a'] })).toBe('select');
  });
  it('unknown string formats stay text inputs', () => {
    expect(detectControl({ type: 'string', format: 'email' })).toBe('text');
  });
  it.each<[string, JsonSchema]>([
    ['array of numbers', { type: 'array', items: { type: 'number' } }],
    ['array of booleans', { type: 'array', items: { type: 'boolean' } }],
    ['array without items', { type: 'array' }],
    ['array of arrays', { type: 'array', items: { type: 'array', items: { type: 'string' } } }],
    ['no type', {}],
    ['two non-null types', { type: ['string', 'number'] }],
    ['only null', { type: 'null' }],
  ])('%s falls back to json-textarea', (_n, schema) => {
    expect(detectControl(schema)).toBe('json-textarea');
  });
});
