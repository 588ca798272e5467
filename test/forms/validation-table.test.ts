import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { samples } from '../../src/forms/samples/index.js';
import { createValidator } from '../../src/forms/validator.js';
import type { JsonSchema } from '../../src/forms/types.js';

interface Case {
  name: string;
  schema: string | JsonSchema;
  value: unknown;
  valid: boolean;
  errors: Array<{ path: string; keyword: string }>;
}
const table = JSON.parse(readFileSync(new URL('../fixtures/forms/validation-pairs.json', import.meta.url), 'utf8')) as {
  cases: Case[];
};

describe('validation table (shared with the browser tests)', () => {
  it('has at least 50 pairs, both valid and invalid, over every sample', () => {
    expect(table.cases.length).toBeGreaterThanOrEqual(50);
    expect(table.cases.filter((c) => c.valid).length).toBeGreaterThanOrEqual(15);
    expect(table.cases.filter((c) => !c.valid).length).toBeGreaterThanOrEqual(35);
    const used = new Set(table.cases.map((c) => c.schema).filter((s) => typeof s === 'string'));
    for (const name of [
      'article',
      'event',
      'rich-media',
      'product-specs',
      'settings-json',
      'nested-three-levels',
      'too-deep',
    ])
      expect(used).toContain(name);
    expect(new Set(table.cases.map((c) => c.name)).size).toBe(table.cases.length);
  });

  it.each(table.cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const schema = typeof c.schema === 'string' ? samples[c.schema] : c.schema;
    expect(schema, `unknown sample ${String(c.schema)}`).toBeDefined();
    const errors = createValidator(schema).validate(c.value);
    expect(errors.length === 0).toBe(c.valid);
    expect(errors.map(({ path, keyword }) => ({ path, keyword }))).toEqual(c.errors);
    for (const e of errors) {
      expect(e.message.en).not.toBe('');
      expect(e.message.ja).toMatch(/[\u3040-\u30ff\u4e00-\u9fff]/);
    }
  });
});
