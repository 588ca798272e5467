import { describe, expect, it } from 'vitest';
import { buildForm } from '../../src/forms/build.js';
import { formDepth } from '../../src/forms/depth.js';
import { lintSchema } from '../../src/forms/lint.js';
import { FormSchemaError } from '../../src/forms/schema-error.js';
import { createValidator } from '../../src/forms/validator.js';
import type { JsonSchema } from '../../src/forms/types.js';

const obj = (props: Record<string, JsonSchema> = { name: { type: 'string' } }): JsonSchema => ({
  type: 'object',
  properties: props,
});
const arr = (items: JsonSchema): JsonSchema => ({ type: 'array', items });

// The spec's "Nested structure support" table.
const rows: Array<[string, JsonSchema, number, boolean]> = [
  ['object', obj(), 1, true],
  ['array of objects', arr(obj()), 2, true],
  ['object > array > object', obj({ list: arr(obj()) }), 3, true],
  ['array > object > array > object', arr(obj({ list: arr(obj()) })), 4, false],
  ['object > array > object > array > object', obj({ list: arr(obj({ sub: arr(obj()) })) }), 5, false],
  ['array > object > array > object > array > object', arr(obj({ a: arr(obj({ b: arr(obj()) })) })), 6, false],
];

describe('nesting limit (three levels)', () => {
  it.each(rows)('%s', (_n, schema, levels, supported) => {
    expect(formDepth(schema, 3).depth).toBe(levels);
    const depthIssues = lintSchema(schema).filter((i) => i.code === 'depth-exceeded');
    expect(depthIssues.length).toBe(supported ? 0 : 1);
    if (supported) {
      expect(() => buildForm(schema)).not.toThrow();
    } else {
      expect(depthIssues[0]!.level).toBe('form');
      let err: unknown;
      try {
        buildForm(schema);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(FormSchemaError);
      const fe = err as FormSchemaError;
      expect(fe.code).toBe('form-refused');
      expect(fe.localized.en).toContain(`nests ${levels} levels`);
      expect(fe.localized.en).toContain('link the records');
      expect(fe.localized.en).toContain('ID field');
      expect(fe.localized.ja).toContain(`${levels}階層`);
      expect(fe.localized.ja).toContain('IDフィールド');
      expect(fe.localized.ja).toContain('分割');
      // Deeper schemas stay usable for the JSON editor and validation (docs/decisions.md D43).
      expect(() => createValidator(schema)).not.toThrow();
    }
  });

  it('leaf controls add no level: comma lists, multi-selects and JSON objects inside cards', () => {
    const schema = obj({
      list: arr(
        obj({
          tags: arr({ type: 'string' }),
          langs: arr({ type: 'string', enum: ['ja'] }),
          meta: obj({ deep: obj({ deeper: obj() }) }),
        }),
      ),
    });
    expect(formDepth(schema, 3).depth).toBe(3);
    expect(lintSchema(schema)).toEqual([]);
  });

  it('the refusal points at the first array beyond the limit', () => {
    const issue = lintSchema(rows[4]![1]).find((i) => i.code === 'depth-exceeded')!;
    expect(issue.schemaPath).toBe('/properties/list/items/properties/sub');
  });
});
