import { describe, expect, it } from 'vitest';
import { createAjv, stripNullable } from '../../src/forms/ajv-setup.js';
import { FormSchemaError } from '../../src/forms/schema-error.js';
import { createValidator } from '../../src/forms/validator.js';
import type { JsonSchema } from '../../src/forms/types.js';

const root = (props: Record<string, JsonSchema>, extra: Partial<JsonSchema> = {}): JsonSchema => ({
  type: 'object',
  properties: props,
  ...extra,
});
const errs = (schema: JsonSchema, value: unknown) =>
  createValidator(schema)
    .validate(value)
    .map(({ path, keyword, message }) => ({ path, keyword, ...message }));

describe('createValidator: the schema is checked first', () => {
  it('a lint error refuses the schema with a clear en/ja error', () => {
    try {
      createValidator(root({ a: { type: 'string', enumNmes: ['x'] } }));
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(FormSchemaError);
      const fe = e as FormSchemaError;
      expect(fe.code).toBe('schema-invalid');
      expect(fe.message).toBe('The JSON schema has 1 error: Unknown keyword "enumNmes". Did you mean "enumNames"?');
      expect(fe.localized.ja).toBe(
        'JSONスキーマに1件のエラーがあります: 不明なキーワード「enumNmes」です。「enumNames」の誤りではありませんか？',
      );
      expect(fe.issues[0]!.schemaPath).toBe('/properties/a/enumNmes');
    }
  });
  it('counts several errors', () => {
    expect(() =>
      createValidator(root({ a: { type: 'strin' as 'string' }, b: { type: 'string', pattern: '(' } })),
    ).toThrow(/has 2 errors/);
  });
  it('a schema that is not an object', () => {
    expect(() => createValidator('nope')).toThrow(/must be a JSON object/);
    expect(() => createValidator(null)).toThrow(FormSchemaError);
  });
  it('warnings and form-only refusals do not refuse validation', () => {
    const deep = root({
      a: { type: 'array', items: root({ b: { type: 'array', items: root({ c: { type: 'string' } }) } }) },
    });
    const v = createValidator(deep);
    expect(v.issues.map((i) => i.code)).toEqual(['depth-exceeded']);
    expect(v.validate({ a: [{ b: [{ c: 1 }] }] })).toMatchObject([{ path: '/a/0/b/0/c', keyword: 'type' }]);
    expect(createValidator({ type: 'string', minLength: 2 }).validate('a')).toMatchObject([
      { path: '', keyword: 'minLength' },
    ]);
  });
});

describe('ajv setup: strict mode with declared keywords and meta-schemas', () => {
  const compile = (s: JsonSchema) => createAjv().compile(s);
  it('declared keywords compile in strict mode', () => {
    expect(() =>
      compile(
        root({
          s: { type: 'string', enum: ['a'], enumNames: ['A'] },
          t: { type: 'string', format: 'textarea', rows: 4 },
          h: {
            type: 'string',
            format: 'html',
            format_options: { height: 300, toolbar: 'basic', use_markdown: '1', subscript: true },
          },
          d: { type: 'string', format: 'date-time', minuteInterval: 15 },
          f: { type: 'string', format: 'file-manager' },
          day: { type: 'string', format: 'date' },
        }),
      ),
    ).not.toThrow();
  });
  it('the meta-schemas check the shape of our keywords (even without lint)', () => {
    expect(() => compile(root({ s: { type: 'string', enum: ['a'], enumNames: 'A' as unknown as string[] } }))).toThrow(
      /enumNames/,
    );
    expect(() => compile(root({ s: { type: 'string', enumNames: ['A'] } }))).toThrow(/dependencies of enumNames: enum/);
    expect(() => compile(root({ s: { type: 'string', format: 'textarea', rows: 0 } }))).toThrow(/rows/);
    expect(() => compile(root({ s: { type: 'string', format: 'date-time', minuteInterval: 7 } }))).toThrow(
      /minuteInterval/,
    );
    expect(() => compile(root({ s: { type: 'string', format: 'html', format_options: { heigth: 1 } } }))).toThrow(
      /format_options/,
    );
    expect(() => compile(root({ s: { type: 'string', format: 'html', format_options: { toolbar: 1 } } }))).toThrow(
      /format_options/,
    );
  });
  it('strict mode still rejects unknown keywords and formats', () => {
    expect(() => compile(root({ s: { type: 'string', enumNmes: [] } }))).toThrow(/unknown keyword/);
    expect(() => compile(root({ s: { type: 'string', format: 'email' } }))).toThrow(/unknown format/);
  });
  it('nullable is stripped before compiling (docs/decisions.md D44): it never changes validation', () => {
    const s = root({
      n: { type: 'integer', nullable: true },
      m: { type: 'integer', nullable: false },
      c: { type: 'array', items: root({ x: { type: 'number', nullable: true } }) },
    });
    expect(JSON.stringify(stripNullable(s))).not.toContain('nullable');
    expect(JSON.stringify(s)).toContain('nullable'); // the input is untouched
    expect(errs(s, { n: null, m: null, c: [{ x: null }] }).map((e) => `${e.path}:${e.keyword}`)).toEqual([
      '/n:required',
      '/m:required',
      '/c/0/x:required',
    ]);
    // ajv alone would throw on this combination; lint refuses it with our message instead
    expect(() => createValidator(root({ n: { type: ['integer', 'null'], nullable: false } }))).toThrow(/contradicts/);
  });
});

describe('validate: messages from our catalogue for every keyword we emit', () => {
  const cases: Array<[string, JsonSchema, unknown, { path: string; keyword: string; en: string; ja: string }]> = [
    [
      'required (missing property)',
      root({ a: { type: 'object' } }, { required: ['a'] }),
      {},
      { path: '/a', keyword: 'required', en: 'This field is required.', ja: 'この項目は必須です。' },
    ],
    [
      'required (null in a non-null type)',
      root({ a: { type: 'integer' } }),
      { a: null },
      { path: '/a', keyword: 'required', en: 'This field is required.', ja: 'この項目は必須です。' },
    ],
    [
      'required (empty string with minLength)',
      root({ a: { type: 'string', minLength: 1 } }),
      { a: '' },
      { path: '/a', keyword: 'required', en: 'This field is required.', ja: 'この項目は必須です。' },
    ],
    [
      'required (enum with null, type without null)',
      root({ a: { type: 'string', enum: [null, 'x'] } }),
      { a: null },
      { path: '/a', keyword: 'required', en: 'This field is required.', ja: 'この項目は必須です。' },
    ],
    [
      'type string',
      root({ a: { type: 'string' } }),
      { a: 1 },
      { path: '/a', keyword: 'type', en: 'Must be a string.', ja: '文字列で入力してください。' },
    ],
    [
      'type integer',
      root({ a: { type: 'integer' } }),
      { a: 1.5 },
      { path: '/a', keyword: 'type', en: 'Must be an integer.', ja: '整数で入力してください。' },
    ],
    [
      'type number (nullable)',
      root({ a: { type: ['number', 'null'] } }),
      { a: 'x' },
      { path: '/a', keyword: 'type', en: 'Must be a number.', ja: '数値で入力してください。' },
    ],
    [
      'type boolean',
      root({ a: { type: 'boolean' } }),
      { a: 'x' },
      { path: '/a', keyword: 'type', en: 'Must be true or false.', ja: '真偽値で入力してください。' },
    ],
    [
      'type array',
      root({ a: { type: 'array', items: { type: 'string' } } }),
      { a: 'x' },
      { path: '/a', keyword: 'type', en: 'Must be a list.', ja: '配列で入力してください。' },
    ],
    [
      'type object',
      root({ a: { type: 'object' } }),
      { a: [] },
      { path: '/a', keyword: 'type', en: 'Must be an object.', ja: 'オブジェクトで入力してください。' },
    ],
    [
      'minLength',
      root({ a: { type: 'string', minLength: 3 } }),
      { a: 'ab' },
      { path: '/a', keyword: 'minLength', en: 'Enter at least 3 characters.', ja: '3文字以上で入力してください。' },
    ],
    [
      'maxLength',
      root({ a: { type: 'string', maxLength: 3 } }),
      { a: 'abcd' },
      { path: '/a', keyword: 'maxLength', en: 'Enter at most 3 characters.', ja: '3文字以内で入力してください。' },
    ],
    [
      'maxLength 1 (singular)',
      root({ a: { type: 'string', maxLength: 1 } }),
      { a: 'ab' },
      { path: '/a', keyword: 'maxLength', en: 'Enter at most 1 character.', ja: '1文字以内で入力してください。' },
    ],
    [
      'minimum',
      root({ a: { type: 'number', minimum: 0.5 } }),
      { a: 0 },
      { path: '/a', keyword: 'minimum', en: 'Must be 0.5 or more.', ja: '0.5以上の値を入力してください。' },
    ],
    [
      'maximum',
      root({ a: { type: 'integer', maximum: 10 } }),
      { a: 11 },
      { path: '/a', keyword: 'maximum', en: 'Must be 10 or less.', ja: '10以下の値を入力してください。' },
    ],
    [
      'minItems',
      root({ a: { type: 'array', items: { type: 'string' }, minItems: 2 } }),
      { a: ['x'] },
      { path: '/a', keyword: 'minItems', en: 'Enter at least 2 items.', ja: '2件以上入力してください。' },
    ],
    [
      'maxItems',
      root({ a: { type: 'array', items: { type: 'string' }, maxItems: 1 } }),
      { a: ['x', 'y'] },
      { path: '/a', keyword: 'maxItems', en: 'Enter at most 1 item.', ja: '1件以内にしてください。' },
    ],
    [
      'uniqueItems',
      root({ a: { type: 'array', items: { type: 'string' }, uniqueItems: true } }),
      { a: ['x', 'y', 'x'] },
      {
        path: '/a',
        keyword: 'uniqueItems',
        en: 'Items 1 and 3 are the same; each item may appear only once.',
        ja: '1件目と3件目が重複しています。同じ値は1回しか入力できません。',
      },
    ],
    [
      'pattern',
      root({ a: { type: 'string', pattern: '^[0-9]+$' } }),
      { a: 'x' },
      {
        path: '/a',
        keyword: 'pattern',
        en: 'Does not match the required pattern ^[0-9]+$.',
        ja: '入力形式が正しくありません（パターン ^[0-9]+$）。',
      },
    ],
    [
      'enum with enumNames',
      root({ a: { type: 'string', enum: ['d', 'p'], enumNames: ['Draft', '公開'] } }),
      { a: 'x' },
      {
        path: '/a',
        keyword: 'enum',
        en: 'Choose one of: Draft, 公開.',
        ja: '次のいずれかを選択してください: Draft、公開',
      },
    ],
    [
      'enum without enumNames',
      root({ a: { type: 'integer', enum: [1, 2] } }),
      { a: 3 },
      { path: '/a', keyword: 'enum', en: 'Choose one of: 1, 2.', ja: '次のいずれかを選択してください: 1、2' },
    ],
    [
      'format date',
      root({ a: { type: 'string', format: 'date' } }),
      { a: '2024-02-30' },
      {
        path: '/a',
        keyword: 'format',
        en: 'Enter a valid date (YYYY-MM-DD).',
        ja: '正しい日付（YYYY-MM-DD）を入力してください。',
      },
    ],
    [
      'format date-time',
      root({ a: { type: 'string', format: 'date-time' } }),
      { a: '2024-05-01T10:30' },
      {
        path: '/a',
        keyword: 'format',
        en: 'Enter a valid date and time with seconds and a time zone (YYYY-MM-DDTHH:mm:ss+09:00).',
        ja: '秒とタイムゾーンを含む正しい日時（YYYY-MM-DDTHH:mm:ss+09:00）を入力してください。',
      },
    ],
    [
      'format file-manager',
      root({ a: { type: 'string', format: 'file-manager' } }),
      { a: 'a.jpg' },
      {
        path: '/a',
        keyword: 'format',
        en: 'Enter a file path starting with "/" (no line breaks).',
        ja: '「/」で始まるファイルパスを入力してください（改行は使えません）。',
      },
    ],
    [
      'additionalProperties',
      root({ a: { type: 'string' } }, { additionalProperties: false }),
      { a: '', b: 1 },
      {
        path: '/b',
        keyword: 'additionalProperties',
        en: 'The property "b" is not defined in the schema.',
        ja: 'プロパティ「b」はスキーマに定義されていません。',
      },
    ],
  ];
  it.each(cases)('%s', (_n, schema, value, expected) => {
    expect(errs(schema, value)).toEqual([expected]);
  });

  it('html and textarea formats accept any string', () => {
    expect(
      errs(root({ h: { type: 'string', format: 'html' }, t: { type: 'string', format: 'textarea' } }), {
        h: '<p>a</p>\n',
        t: 'x\ny',
      }),
    ).toEqual([]);
  });

  it('a required field reports only "required", not the other keywords at the same path', () => {
    expect(errs(root({ a: { type: 'string', minLength: 1, pattern: '^x' } }), { a: '' }).map((e) => e.keyword)).toEqual(
      ['required'],
    );
    expect(errs(root({ a: { type: 'string', enum: ['x'] } }), { a: null }).map((e) => e.keyword)).toEqual(['required']);
  });

  it('all errors are reported at once (allErrors)', () => {
    expect(
      errs(root({ a: { type: 'string' }, b: { type: 'integer' }, c: { type: 'boolean' } }), {
        a: 1,
        b: 'x',
        c: null,
      }).map((e) => e.path),
    ).toEqual(['/a', '/b', '/c']);
  });

  it('maxLength counts code points, as ajv does; patterns are substring searches', () => {
    expect(errs(root({ a: { type: 'string', maxLength: 2 } }), { a: '𠮷野' })).toEqual([]);
    expect(errs(root({ a: { type: 'string', pattern: '[0-9]{3}' } }), { a: 'ab1234cd' })).toEqual([]);
  });

  it('every error names the control that shows it (field)', () => {
    const v = createValidator(
      root({
        tags: { type: 'array', items: { type: 'string', maxLength: 1 } },
        cards: {
          type: 'array',
          items: root({
            inner: { type: 'object', properties: { z: { type: 'integer' } } },
            list: { type: 'array', items: { type: 'string', enum: ['a'] } },
          }),
        },
        'a/b': { type: 'integer' },
      }),
    );
    const out = v.validate({ tags: ['xx'], cards: [{ inner: { z: 'q' }, list: ['b'] }], 'a/b': 'x' });
    expect(out.map((e) => [e.path, e.field])).toEqual([
      ['/tags/0', '/tags'],
      ['/cards/0/inner/z', '/cards/0/inner'],
      ['/cards/0/list/0', '/cards/0/list'],
      ['/a~1b', '/a~1b'],
    ]);
  });
});
