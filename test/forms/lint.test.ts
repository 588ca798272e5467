import { describe, expect, it } from 'vitest';
import { lintSchema } from '../../src/forms/lint.js';
import { samples } from '../../src/forms/samples/index.js';
import type { Issue, JsonSchema } from '../../src/forms/types.js';

const root = (props: Record<string, unknown>, extra: Record<string, unknown> = {}): JsonSchema => ({
  type: 'object',
  properties: props as Record<string, JsonSchema>,
  ...extra,
});
const one = (schema: unknown, code: string): Issue => {
  const found = lintSchema(schema).filter((i) => i.code === code);
  expect(found, `${code} in ${JSON.stringify(lintSchema(schema).map((i) => i.code))}`).toHaveLength(1);
  return found[0]!;
};
const codes = (schema: unknown) => lintSchema(schema).map((i) => `${i.level}:${i.code}`);

describe('lintSchema', () => {
  it('samples are clean, except the deliberately too deep one and the Kuroco enum-with-null pattern', () => {
    for (const [name, schema] of Object.entries(samples)) {
      const issues = lintSchema(schema).map((i) => `${i.level}:${i.code}:${i.schemaPath}`);
      if (name === 'too-deep')
        expect(issues).toEqual(['form:depth-exceeded:/properties/members/items/properties/projects']);
      else if (name === 'article') expect(issues).toEqual(['warning:enum-null-type:/properties/status/enum']);
      else expect(issues, name).toEqual([]);
    }
  });

  it('every issue has en and ja messages and a schema path', () => {
    const issues = lintSchema(
      root({ a: { type: 'strin' }, b: { type: 'string', enumNames: ['x'], rows: 2, format_options: { heigth: 1 } } }),
    );
    expect(issues.length).toBeGreaterThan(3);
    for (const i of issues) {
      expect(i.message.en).toMatch(/\w/);
      expect(i.message.ja).toMatch(/[\u3040-\u30ff\u4e00-\u9fff]/);
      expect(i.schemaPath).toMatch(/^\/properties\//);
    }
  });

  it('unknown keywords, with a suggestion for typos', () => {
    const i = one(root({ a: { type: 'string', enumNmes: ['x'] } }), 'unknown-keyword');
    expect(i).toMatchObject({ level: 'error', schemaPath: '/properties/a/enumNmes' });
    expect(i.message.en).toBe('Unknown keyword "enumNmes". Did you mean "enumNames"?');
    expect(i.message.ja).toBe('不明なキーワード「enumNmes」です。「enumNames」の誤りではありませんか？');
    expect(one(root({ a: { type: 'string', oneOf: [] } }), 'unknown-keyword').message.en).toBe(
      'Unknown keyword "oneOf".',
    );
  });

  it('accepts the standard annotations and the documented extra keywords', () => {
    expect(
      lintSchema({
        $schema: 'http://json-schema.org/draft-07/schema#',
        $id: 'x',
        $comment: 'c',
        type: 'object',
        additionalProperties: false,
        properties: { t: { type: 'array', items: { type: 'string' }, uniqueItems: true } },
      }),
    ).toEqual([]);
  });

  it('enumNames length differs from enum', () => {
    const i = one(root({ a: { type: 'string', enum: ['a', 'b'], enumNames: ['A'] } }), 'enumnames-length');
    expect(i.level).toBe('error');
    expect(i.message.en).toContain('1 label but "enum" has 2 values');
    expect(i.message.ja).toContain('表示名は1個ですが「enum」の値は2個');
  });

  it('enumNames without enum, and of the wrong shape', () => {
    one(root({ a: { type: 'string', enumNames: ['A'] } }), 'enumnames-without-enum');
    expect(one(root({ a: { type: 'string', enum: ['a'], enumNames: 'A' } }), 'value-invalid').message.en).toBe(
      'The value of "enumNames" must be an array of strings.',
    );
  });

  it('default not in enum (JSON equality)', () => {
    expect(one(root({ a: { type: 'string', enum: ['a'], default: 'b' } }), 'default-not-in-enum').level).toBe('error');
    expect(codes(root({ a: { type: 'integer', enum: [1, 2], default: 2 } }))).toEqual([]);
    one(root({ a: { type: 'integer', enum: [1, 2], default: '2' } }), 'default-not-in-enum');
  });

  it('enum with null but a type without null is a warning (the Kuroco pattern)', () => {
    expect(codes(root({ a: { type: 'string', enum: [null, 'x'], nullable: false } }))).toEqual([
      'warning:enum-null-type',
    ]);
    expect(codes(root({ a: { type: ['string', 'null'], enum: [null, 'x'] } }))).toEqual([]);
  });

  it('nullable false with null in type', () => {
    expect(one(root({ a: { type: ['integer', 'null'], nullable: false } }), 'nullable-contradicts-type').level).toBe(
      'error',
    );
    expect(codes(root({ a: { type: ['integer', 'null'], nullable: true } }))).toEqual([]);
  });

  it('nullable where it marks nothing is a warning', () => {
    expect(codes(root({ a: { type: 'string', nullable: false } }))).toEqual(['warning:nullable-no-effect']);
    expect(codes(root({ a: { type: 'boolean', nullable: false } }))).toEqual(['warning:nullable-no-effect']);
    expect(codes(root({ a: { type: 'string', format: 'date', nullable: false } }))).toEqual([]);
  });

  it('rows without format textarea', () => {
    expect(codes(root({ a: { type: 'string', rows: 3 } }))).toEqual(['warning:rows-without-textarea']);
    expect(codes(root({ a: { type: 'string', format: 'textarea', rows: 3 } }))).toEqual([]);
    expect(codes(root({ a: { type: 'string', format: 'textarea', rows: 0 } }))).toEqual(['error:value-invalid']);
  });

  it('format_options without format html', () => {
    expect(codes(root({ a: { type: 'string', format: 'textarea', format_options: { height: 1 } } }))).toEqual([
      'warning:format-options-without-html',
    ]);
  });

  it('format_options keys: exactly the spec table', () => {
    const all = {
      height: '300px',
      width: 500,
      toolbar: 'basic',
      use_markdown: '1',
      subscript: true,
      removePlugins: 'insertImage,mediaEmbed',
      use_font_size_px: true,
      largeColorPalette: 'true',
      customColors: '#ff0000,#00ff00',
      use_magicline: true,
      custom_css: '/files/user/editor.css',
      resource: '/files/user/',
    };
    expect(codes(root({ a: { type: 'string', format: 'html', format_options: all } }))).toEqual([]);
    const i = one(
      root({ a: { type: 'string', format: 'html', format_options: { heigth: 1 } } }),
      'format-options-unknown-key',
    );
    expect(i).toMatchObject({ level: 'error', schemaPath: '/properties/a/format_options/heigth' });
    expect(i.message.en).toContain('Did you mean "height"?');
    one(
      root({ a: { type: 'string', format: 'html', format_options: { allow_all_tags: true } } }),
      'format-options-unknown-key',
    );
    expect(
      one(root({ a: { type: 'string', format: 'html', format_options: { toolbar: 1 } } }), 'value-invalid').message.en,
    ).toBe('The value of "format_options.toolbar" must be a string.');
  });

  it('unknown formats', () => {
    expect(one(root({ a: { type: 'string', format: 'email' } }), 'format-unknown').level).toBe('error');
  });

  it('minuteInterval', () => {
    expect(codes(root({ a: { type: 'string', format: 'date-time', minuteInterval: 15 } }))).toEqual([]);
    expect(codes(root({ a: { type: 'string', format: 'date-time', minuteInterval: 7 } }))).toEqual([
      'error:minute-interval-invalid',
    ]);
    expect(codes(root({ a: { type: 'string', format: 'date', minuteInterval: 5 } }))).toEqual([
      'warning:minute-interval-without-datetime',
    ]);
  });

  it('min greater than max', () => {
    const i = one(
      root({ a: { type: 'array', items: { type: 'string' }, minItems: 3, maxItems: 2 } }),
      'min-greater-than-max',
    );
    expect(i.schemaPath).toBe('/properties/a/minItems');
    expect(i.message.en).toBe('"minItems" (3) is greater than "maxItems" (2); no value can be valid.');
    one(root({ a: { type: 'string', minLength: 3, maxLength: 2 } }), 'min-greater-than-max');
    one(root({ a: { type: 'number', minimum: 3, maximum: 2 } }), 'min-greater-than-max');
    expect(codes(root({ a: { type: 'number', minimum: 2, maximum: 2 } }))).toEqual([]);
  });

  it('patterns must compile with the u flag', () => {
    one(root({ a: { type: 'string', pattern: '([a-z' } }), 'pattern-invalid');
    // Valid without u, invalid with u (an identity escape of a letter).
    expect(() => new RegExp('\\q')).not.toThrow();
    one(root({ a: { type: 'string', pattern: '\\q' } }), 'pattern-invalid');
    expect(codes(root({ a: { type: 'string', pattern: '^\\p{Script=Han}+$' } }))).toEqual([]);
  });

  it('types: missing, invalid, unions', () => {
    one(root({ a: { title: 'x' } }), 'type-missing');
    one(root({ a: { type: 'text' } }), 'type-invalid');
    one(root({ a: { type: ['string', 'number'] } }), 'type-union');
    one(root({ a: { type: 'null' } }), 'type-invalid');
    expect(codes(root({ a: { type: ['string', 'null'] } }))).toEqual([]);
  });

  it('a refused type\'s message quotes it once (issue 37: it read ""text"")', () => {
    expect(one(root({ a: { type: 'text' } }), 'type-invalid').message).toEqual({
      en: '"text" is not a type; use string, integer, number, boolean, array or object (optionally with "null").',
      ja: '「text」は型ではありません。string、integer、number、boolean、array、object のいずれか（null との組み合わせ可）を指定してください。',
    });
    expect(one(root({ a: { type: 'null' } }), 'type-invalid').message.en).toMatch(/^"null" is not a type;/);
    expect(one(root({ a: { type: ['null'] } }), 'type-invalid').message.ja).toMatch(
      /^「\["null"\]」は型ではありません。/,
    );
    expect(one(root({ a: { type: 5 } }), 'type-invalid').message.en).toMatch(/^"5" is not a type;/);
  });

  it('no message of a refused schema doubles its quotes', () => {
    const refused = root(
      {
        a: { type: 'text' },
        b: { type: 'null' },
        c: { type: ['string', 'number'] },
        d: { type: 'string', format: 'dat', pattern: '(', enum: ['x', 'x'], default: 'y' },
        e: { type: 'string', enumNmes: ['x'], format_options: { x: 1 }, minuteInterval: 7 },
        f: { type: 'integer', minLength: 'two', minimum: 3, maximum: 2 },
      },
      { required: ['z'] },
    );
    const messages = lintSchema(refused).flatMap((i) => [i.message.en, i.message.ja]);
    expect(messages.length).toBeGreaterThan(20);
    for (const m of messages) expect(m).not.toMatch(/""|「"|"」|「「|」」/);
  });

  it('keywords that do not apply to the type', () => {
    const i = one(root({ a: { type: 'integer', minLength: 1 } }), 'keyword-not-applicable');
    expect(i.message.en).toBe('"minLength" does not apply to type integer.');
    one(root({ a: { type: 'array', items: { type: 'string' }, enum: [['a']] } }), 'keyword-not-applicable');
    one(root({ a: { type: 'string', format: 'textarea', rows: 2, minItems: 1 } }), 'keyword-not-applicable');
  });

  it('required names that are not properties', () => {
    one(root({ a: { type: 'string' } }, { required: ['b'] }), 'required-unknown');
  });

  it('sub-schemas that are not objects', () => {
    one(root({ a: true }), 'schema-not-object');
  });

  it('arrays without items are a warning', () => {
    expect(codes(root({ a: { type: 'array' } }))).toEqual(['warning:items-missing']);
  });

  it('non-object root is refused for the form UI only', () => {
    expect(codes({ type: 'string' })).toEqual(['form:root-not-object']);
    expect(codes({ type: 'array', items: { type: 'string' } })).toEqual(['form:root-not-object']);
    expect(codes({ type: 'array', items: { type: 'object', properties: {} } })).toEqual([]);
    expect(one({ type: 'number' }, 'root-not-object').message.ja).toContain('JSONエディタ');
  });
});
