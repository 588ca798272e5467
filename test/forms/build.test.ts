import { describe, expect, it } from 'vitest';
import { buildForm, type FieldNode, type GroupNode } from '../../src/forms/build.js';
import { FormSchemaError } from '../../src/forms/schema-error.js';
import { samples } from '../../src/forms/samples/index.js';
import type { ControlKind } from '../../src/forms/types.js';

const child = (g: GroupNode, name: string): FieldNode => {
  const f = g.children.find((c) => c.name === name);
  if (!f) throw new Error(`no field ${name}`);
  return f;
};

describe('buildForm', () => {
  it('labels from title (else the property name), help from description', () => {
    const { root } = buildForm({
      type: 'object',
      title: 'Form',
      description: 'Help for all',
      properties: { a: { type: 'string', title: 'Alpha', description: 'Small help' }, b: { type: 'string' } },
    });
    const g = root as GroupNode;
    expect(g).toMatchObject({ kind: 'group', label: 'Form', help: 'Help for all', schemaPath: '' });
    expect(child(g, 'a')).toMatchObject({
      kind: 'text',
      label: 'Alpha',
      help: 'Small help',
      schemaPath: '/properties/a',
    });
    expect(child(g, 'b').label).toBe('b');
    expect(child(g, 'b').help).toBeUndefined();
  });

  it('keeps schema order of properties', () => {
    const { root } = buildForm({
      type: 'object',
      properties: { z: { type: 'string' }, a: { type: 'string' }, m: { type: 'string' } },
    });
    expect((root as GroupNode).children.map((c) => c.name)).toEqual(['z', 'a', 'm']);
  });

  it('enumNames are display labels, enum values are stored', () => {
    const { root } = buildForm({
      type: 'object',
      properties: {
        s: { type: 'string', enum: [null, 'draft', 'pub'], enumNames: ['Choose', 'Draft', 'Published'] },
        n: { type: 'integer', enum: [3, 2, 1], enumNames: ['High', 'Normal', 'Low'] },
        m: { type: 'array', items: { type: 'string', enum: ['ja', 'en'], enumNames: ['日本語', 'English'] } },
        plain: { type: 'string', enum: ['x', 'y'] },
      },
    });
    const g = root as GroupNode;
    expect(child(g, 's').options).toEqual([
      { value: null, label: 'Choose' },
      { value: 'draft', label: 'Draft' },
      { value: 'pub', label: 'Published' },
    ]);
    expect(child(g, 'n')).toMatchObject({ kind: 'number-select', numberType: 'integer' });
    expect(child(g, 'n').options!.map((o) => o.value)).toEqual([3, 2, 1]);
    expect(child(g, 'm')).toMatchObject({
      kind: 'multi-select',
      options: [
        { value: 'ja', label: '日本語' },
        { value: 'en', label: 'English' },
      ],
    });
    expect(child(g, 'plain').options).toEqual([
      { value: 'x', label: 'x' },
      { value: 'y', label: 'y' },
    ]);
  });

  it('required marks per kind, from the enclosing object', () => {
    const { root } = buildForm({
      type: 'object',
      required: ['tags', 'cards', 'title', 'when'],
      properties: {
        title: { type: 'string' },
        name: { type: 'string', minLength: 1 },
        when: { type: 'string', format: 'date' },
        day: { type: 'string', format: 'date', nullable: false },
        n: { type: 'number', nullable: false },
        tags: { type: 'array', items: { type: 'string' } },
        cards: {
          type: 'array',
          minItems: 1,
          items: {
            type: 'object',
            required: ['inner'],
            properties: { inner: { type: 'object' }, x: { type: 'integer', nullable: false } },
          },
        },
        other: { type: 'array', items: { type: 'string' }, minItems: 1 },
      },
    });
    const g = root as GroupNode;
    const marks = Object.fromEntries(g.children.map((c) => [c.name, c.required]));
    expect(marks).toEqual({
      title: false,
      name: true,
      when: false,
      day: true,
      n: true,
      tags: true,
      cards: true,
      other: false,
    });
    const item = child(g, 'cards').item!;
    expect(item.children.map((c) => [c.name, c.required])).toEqual([
      ['inner', true],
      ['x', true],
    ]);
  });

  it('carries rows, format_options, minuteInterval, bounds and nullability', () => {
    const { root } = buildForm({
      type: 'object',
      properties: {
        t: { type: 'string', format: 'textarea', rows: 6, maxLength: 10 },
        h: { type: 'string', format: 'html', format_options: { height: 400, toolbar: 'basic' } },
        h2: { type: 'string', format: 'html' },
        d: { type: 'string', format: 'date-time', minuteInterval: 30 },
        n: { type: ['number', 'null'], minimum: 0, maximum: 9 },
        c: {
          type: 'array',
          minItems: 1,
          maxItems: 3,
          items: { type: 'object', properties: { a: { type: 'string' } } },
        },
      },
    });
    const g = root as GroupNode;
    expect(child(g, 't')).toMatchObject({ kind: 'textarea', rows: 6, maxLength: 10 });
    expect(child(g, 'h')).toMatchObject({ kind: 'rich-text', formatOptions: { height: 400, toolbar: 'basic' } });
    expect(child(g, 'h2').formatOptions).toEqual({});
    expect(child(g, 'd')).toMatchObject({ kind: 'datetime', minuteInterval: 30 });
    expect(child(g, 'n')).toMatchObject({
      kind: 'number',
      nullable: true,
      minimum: 0,
      maximum: 9,
      numberType: 'number',
    });
    expect(child(g, 'c')).toMatchObject({ kind: 'cards', minItems: 1, maxItems: 3 });
    expect(child(g, 'c').item).toMatchObject({ kind: 'group', schemaPath: '/properties/c/items' });
    expect(child(g, 'c').item!.children[0]).toMatchObject({
      name: 'a',
      schemaPath: '/properties/c/items/properties/a',
    });
  });

  it('a root array of objects is a cards field over the whole value', () => {
    const { root } = buildForm({
      type: 'array',
      maxItems: 2,
      items: { type: 'object', properties: { a: { type: 'string' } } },
    });
    expect(root).toMatchObject({ kind: 'cards', name: '', schemaPath: '', maxItems: 2, required: false });
  });

  it('refuses bad schemas and non-object roots with a FormSchemaError', () => {
    expect(() => buildForm({ type: 'object', properties: { a: { type: 'strin' } } })).toThrow(FormSchemaError);
    try {
      buildForm({ type: 'string' });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(FormSchemaError);
      expect((e as FormSchemaError).code).toBe('form-refused');
      expect((e as FormSchemaError).localized.ja).toContain('フォームUIを生成できません');
    }
  });

  it('returns warnings without refusing', () => {
    const { warnings } = buildForm({ type: 'object', properties: { a: { type: 'string', rows: 3 } } });
    expect(warnings.map((w) => w.code)).toEqual(['rows-without-textarea']);
  });
});

describe('samples', () => {
  it('cover every control kind', () => {
    const seen = new Set<ControlKind>();
    const visit = (n: GroupNode | FieldNode) => {
      if (n.kind === 'group') n.children.forEach(visit);
      else {
        seen.add(n.kind);
        if (n.item) visit(n.item);
      }
    };
    for (const [name, schema] of Object.entries(samples)) {
      if (name === 'too-deep') continue;
      visit(buildForm(schema).root);
    }
    const all: ControlKind[] = [
      'text',
      'select',
      'date',
      'datetime',
      'file-manager',
      'rich-text',
      'textarea',
      'number',
      'number-select',
      'checkbox',
      'comma-textarea',
      'multi-select',
      'cards',
      'json-textarea',
    ];
    expect([...seen].sort()).toEqual([...all].sort());
    expect(Object.keys(samples).length).toBeGreaterThanOrEqual(6);
  });

  it('the too-deep sample is refused by the form and accepted by the validator', () => {
    expect(() => buildForm(samples['too-deep'])).toThrow(FormSchemaError);
  });
});
