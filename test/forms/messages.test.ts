import { describe, expect, it } from 'vitest';
import { catalogue, message, type MessageKey } from '../../src/forms/messages.js';

const params = {
  keyword: 'kw',
  suggestion: 'kw2',
  type: 'string',
  expected: { en: 'a string', ja: '文字列' },
  names: 2,
  values: 3,
  value: '"v"',
  format: 'f',
  key: 'k',
  min: 'minItems',
  max: 'maxItems',
  minValue: 3,
  maxValue: 2,
  pattern: '"("',
  name: 'n',
  depth: 4,
  limit: 3,
  count: 2,
  first: { en: 'First.', ja: '最初。' },
  detail: { en: 'd', ja: 'd' },
  second: 5,
  allowed: { en: 'A, B', ja: 'A、B' },
  property: 'p',
  text: 't',
  line: 1,
  column: 2,
};

describe('message catalogue', () => {
  const keys = Object.keys(catalogue) as MessageKey[];
  it.each(keys)('%s renders in en and ja, placeholders filled', (key) => {
    for (const p of [params, { ...params, limit: 1, count: 1, names: 1, values: 1 }]) {
      const m = message(key, p);
      for (const text of [m.en, m.ja]) {
        expect(text.length).toBeGreaterThan(0);
        expect(text).not.toMatch(/undefined|\[object|\$\{|\{\{|NaN/);
      }
      expect(m.ja, 'ja must be Japanese').toMatch(/[\u3040-\u30ff\u4e00-\u9fff]/);
      expect(m.en, 'en must not be Japanese').not.toMatch(/[\u3040-\u30ff]/);
      expect(m.en).not.toBe(m.ja);
    }
  });

  it('Japanese bounds say what the keyword means (unlike ajv-i18n)', () => {
    expect(message('validate.minLength', { limit: 3 }).ja).toBe('3文字以上で入力してください。');
    expect(message('validate.maxLength', { limit: 3 }).ja).toBe('3文字以内で入力してください。');
    expect(message('validate.minItems', { limit: 2 }).ja).toBe('2件以上入力してください。');
    expect(message('validate.maxItems', { limit: 2 }).ja).toBe('2件以内にしてください。');
  });

  it('English plurals', () => {
    expect(message('validate.minItems', { limit: 1 }).en).toBe('Enter at least 1 item.');
    expect(message('validate.minItems', { limit: 2 }).en).toBe('Enter at least 2 items.');
    expect(message('card.max-items', { limit: 1 }).en).toBe('At most 1 item is allowed; the item was not added.');
  });
});
