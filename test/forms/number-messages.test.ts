import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { textToNumber } from '../../src/forms/coerce.js';
import { lintSchema } from '../../src/forms/lint.js';
import { formatNumber, message } from '../../src/forms/messages.js';
import { createValidator } from '../../src/forms/validator.js';

interface Text {
  en: string;
  ja: string;
}
const fixture = JSON.parse(readFileSync(new URL('./fixtures/number-messages.json', import.meta.url), 'utf8')) as {
  validate: { name: string; schema: unknown; value: Record<string, unknown>; errors: (Text & { path: string })[] }[];
  lint: { name: string; schema: unknown; issues: (Text & { code: string })[] }[];
  typed: (Text & { name: string; text: string })[];
};

/** "REPEAT:x:1001" in the fixture stands for 1001 x's (a fixture a reader can still read). */
const expand = (v: unknown): unknown => {
  const m = typeof v === 'string' ? /^REPEAT:(.):(\d+)$/.exec(v) : null;
  return m ? m[1]!.repeat(Number(m[2])) : v;
};

describe('numbers in messages: the fixture', () => {
  it.each(fixture.validate)('validate: $name', ({ schema, value, errors }) => {
    const v = Object.fromEntries(Object.entries(value).map(([k, x]) => [k, expand(x)]));
    const got = createValidator(schema)
      .validate(v)
      .map((e) => ({ path: e.path, en: e.message.en, ja: e.message.ja }));
    expect(got).toEqual(errors);
  });
  it.each(fixture.lint)('lint: $name', ({ schema, issues }) => {
    expect(lintSchema(schema).map((i) => ({ code: i.code, en: i.message.en, ja: i.message.ja }))).toEqual(issues);
  });
  it.each(fixture.typed)('typed: $name', ({ text, en, ja }) => {
    expect(textToNumber(text)).toEqual({ ok: false, error: { en, ja } });
  });
});

describe('formatNumber', () => {
  it.each([
    [0, '0'],
    [-0, '0'],
    [7, '7'],
    [999, '999'],
    [1000, '1,000'],
    [-1000, '-1,000'],
    [100000, '100,000'],
    [1234567.891, '1,234,567.891'],
    [0.1 + 0.2, '0.30000000000000004'],
    [Number.MAX_SAFE_INTEGER, '9,007,199,254,740,991'],
    [1e21, '1e+21'],
    [1e-7, '1e-7'],
  ])('%s → %s', (n, text) => {
    expect(formatNumber(n)).toBe(text);
  });
  it('a count in a plural message is formatted and still chooses the plural', () => {
    expect(message('schema.invalid', { count: 1200, first: { en: 'X.', ja: 'X。' } })).toEqual({
      en: 'The JSON schema has 1,200 errors: X.',
      ja: 'JSONスキーマに1,200件のエラーがあります: X。',
    });
  });
});
