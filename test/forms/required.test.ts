import { describe, expect, it } from 'vitest';
import { requiredMark } from '../../src/forms/required.js';
import type { JsonSchema } from '../../src/forms/types.js';

// The spec's "Marking a field as required" table, one block per row.
describe('requiredMark', () => {
  describe('enum, date, date-time, number, integer: nullable false', () => {
    const kinds: Array<[string, JsonSchema]> = [
      ['string enum', { type: 'string', enum: ['a'] }],
      ['numeric enum', { type: 'integer', enum: [1] }],
      ['date', { type: 'string', format: 'date' }],
      ['date-time', { type: 'string', format: 'date-time' }],
      ['number', { type: 'number' }],
      ['integer', { type: 'integer' }],
    ];
    it.each(kinds)('%s: marked with nullable false', (_n, s) => {
      expect(requiredMark({ ...s, nullable: false }, false)).toBe(true);
    });
    it.each(kinds)('%s: not marked without nullable, or nullable true', (_n, s) => {
      expect(requiredMark(s, false)).toBe(false);
      expect(requiredMark({ ...s, nullable: true }, false)).toBe(false);
    });
    it.each(kinds)('%s: the parent required array does not mark it', (_n, s) => {
      expect(requiredMark(s, true)).toBe(false);
    });
    it.each(kinds)('%s: minLength does not mark it', (_n, s) => {
      expect(requiredMark({ ...s, minLength: 1 }, false)).toBe(false);
    });
  });

  describe('string: minLength >= 1', () => {
    const kinds: Array<[string, JsonSchema]> = [
      ['text', { type: 'string' }],
      ['textarea', { type: 'string', format: 'textarea' }],
      ['rich text', { type: 'string', format: 'html' }],
      ['file manager', { type: 'string', format: 'file-manager' }],
      ['nullable text', { type: ['string', 'null'] }],
    ];
    it.each(kinds)('%s: marked with minLength 1 or more', (_n, s) => {
      expect(requiredMark({ ...s, minLength: 1 }, false)).toBe(true);
      expect(requiredMark({ ...s, minLength: 5 }, false)).toBe(true);
    });
    it.each(kinds)('%s: not marked with minLength 0, none, nullable false, or the parent required array', (_n, s) => {
      expect(requiredMark({ ...s, minLength: 0 }, false)).toBe(false);
      expect(requiredMark(s, false)).toBe(false);
      expect(requiredMark({ ...s, nullable: false }, false)).toBe(false);
      expect(requiredMark(s, true)).toBe(false);
    });
  });

  describe('array, object: the enclosing required array', () => {
    const kinds: Array<[string, JsonSchema]> = [
      ['comma list', { type: 'array', items: { type: 'string' } }],
      ['multi-select', { type: 'array', items: { type: 'string', enum: ['a'] } }],
      ['cards', { type: 'array', items: { type: 'object', properties: {} } }],
      ['object (JSON textarea)', { type: 'object' }],
    ];
    it.each(kinds)('%s: marked when listed', (_n, s) => {
      expect(requiredMark(s, true)).toBe(true);
    });
    it.each(kinds)('%s: not marked when not listed, even with minItems or nullable false', (_n, s) => {
      expect(requiredMark(s, false)).toBe(false);
      expect(requiredMark({ ...s, minItems: 1, nullable: false }, false)).toBe(false);
    });
  });

  it('checkboxes are never marked', () => {
    expect(requiredMark({ type: 'boolean' }, true)).toBe(false);
    expect(requiredMark({ type: 'boolean', nullable: false }, true)).toBe(false);
  });
});
