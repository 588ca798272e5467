/**
 * Variables go to a sandbox worker as JSON text when JSON and structured clone agree on them
 * (src/sandbox/plain-json.ts). Two things must hold: the text is made only for such data, and a
 * render sees the same variables either way: the same data rendered through a worker (JSON
 * path) and in this process (structured clone into the isolate) gives the same output.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/index.js';
import { plainJson, plainVarsOf } from '../../src/sandbox/plain-json.js';
import { renderRequest } from '../../src/sandbox/request.js';
import { encodeTables, TABLE_MARK } from '../../src/protocol/tables.js';

const viaWorker = createEngine({ workers: 1 });
const inProcess = createEngine({ workers: 0 });
afterAll(async () => {
  await viaWorker.close();
  await inProcess.close();
});

const nullProto = Object.assign(Object.create(null) as Record<string, unknown>, { b: 1, a: [2] });
const ownProto = JSON.parse('{"__proto__": {"x": 1}, "y": 2}') as Record<string, unknown>;
// eslint-disable-next-line no-sparse-arrays
const holes = [1, , 3];

const PLAIN: [string, Record<string, unknown>][] = [
  ['nested lists and maps', { v: { a: [1, 2, { b: 'c' }], d: { e: { f: [] } }, g: {} } }],
  ['numbers', { v: [0, 1, -1, 0.1, 1.5, 1e21, 2 ** 53 + 2, -1e-7, Number.MAX_VALUE, Number.MIN_VALUE] }],
  ['strings', { v: ['', 'a"b\\c', '日本語', '😀', '\ud800 lone', 'x\u2028y', '<&>', 'a\u0000b'] }],
  [
    'integer-like keys (JavaScript order on both paths)',
    { v: { b: 1, 10: 'ten', 2: 'two', a: 3, '-1': 'neg', '01': 'z' } },
  ],
  ['an empty key and an own __proto__ key', { v: { '': 'empty', ...{}, p: ownProto } }],
  ['a null-prototype object', { v: nullProto }],
  ['holes and undefined in a list', { v: [holes, [undefined, null]] }],
  ['booleans and null', { v: [true, false, null], w: null }],
];

const UNSAFE: [string, unknown][] = [
  ['a Date', { d: new Date(0) }],
  ['NaN', { n: NaN }],
  ['Infinity', { n: [Infinity] }],
  ['-0', { n: -0 }],
  ['undefined under a key', { u: undefined }],
  ['a function', { f: () => 1 }],
  ['a symbol', { s: Symbol('x') }],
  ['a BigInt', { b: 1n }],
  ['a Map', { m: new Map([[1, 2]]) }],
  ['a Set', { s: new Set([1]) }],
  [
    'a class instance',
    {
      c: new (class Point {
        x = 1;
      })(),
    },
  ],
  ['an object with toJSON', { t: { toJSON: () => 'x' } }],
  ['a boxed string', { s: new String('x') }],
  ['a list subclass', { l: new (class L extends Array<number> {})() }],
];

describe('plainJson: which data goes as JSON text', () => {
  for (const [what, data] of PLAIN) {
    it(`plain: ${what}`, () => {
      const text = plainJson(data);
      expect(text).not.toBeNull();
    });
  }

  for (const [what, data] of UNSAFE) {
    it(`by structured clone: ${what}`, () => {
      expect(plainJson(data)).toBeNull();
    });
  }

  it('a cycle, and nesting deeper than 200, go by structured clone', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    expect(plainJson(cyclic)).toBeNull();
    let deep: unknown = 1;
    for (let i = 0; i < 300; i++) deep = [deep];
    expect(plainJson({ deep })).toBeNull();
  });

  it('shared references that would blow up as text go by structured clone', () => {
    let node: unknown = 'leaf';
    for (let i = 0; i < 40; i++) node = [node, node];
    expect(plainJson({ node })).toBeNull();
  });
});

describe("the wire form of a request: the JSON text, which goes as the frame's body", () => {
  const body = (vars: Record<string, unknown>, objects = false) =>
    renderRequest({
      templateName: 't',
      now: 0,
      site: { timezone: 'UTC', lang: 'ja', rootUrl: 'http://x' },
      vars,
      objects,
      seed: [1, 2, 3],
    });

  it('carries the variables as their exact text, and no object of them', () => {
    for (const [, data] of PLAIN) {
      const wire = plainVarsOf(body(data));
      expect(wire.vars).toEqual({ format: 'plain-json', text: plainJson(data), objects: false });
      const text = wire.vars.format === 'plain-json' ? wire.vars.text : '';
      expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(data)));
    }
  });

  const rows = {
    list: [
      { a: 1, b: 'x' },
      { a: 2, b: 'y' },
    ],
    n: 1,
  };

  it("carries lists of rows as their tables' text, unless the vars are read as objects", () => {
    const tables = encodeTables(rows);
    expect(tables).not.toBeNull();
    expect(plainVarsOf(body(rows)).vars).toEqual({ format: 'tables-json', text: JSON.stringify(tables) });
    expect(plainVarsOf(body(rows, true)).vars).toEqual({ format: 'plain-json', text: plainJson(rows), objects: true });
  });

  it('carries data that spells the mark as plain JSON text, where the mark means nothing', () => {
    const spelled = { ...rows, m: [TABLE_MARK, ['a'], [1]] };
    expect(plainVarsOf(body(spelled)).vars).toEqual({ format: 'plain-json', text: plainJson(spelled), objects: false });
  });

  it('leaves data that goes by structured clone as it is', () => {
    const data = { d: new Date(0), n: NaN };
    const wire = plainVarsOf(body(data));
    expect(wire.vars).toEqual({ format: 'plain', value: data, objects: false });
    expect(wire.vars.format === 'plain' && wire.vars.value).toBe(data);
  });
});

describe('a render sees the same variables through a worker (JSON) and in process (structured clone)', () => {
  // json_encode tells ints from floats (1 and 1.0) and keeps key order; the loop lists the keys as PHP sees them.
  const template = '{$v|@json_encode}|{$w|@json_encode}|{foreach from=$v key=k item=x}[{$k}]{/foreach}';
  for (const [what, data] of PLAIN) {
    for (const objects of [false, true]) {
      it(`${what}${objects ? ' (objects)' : ''}`, async () => {
        const render = (e: typeof viaWorker) => e.render(template, { vars: data, objects });
        const [a, b] = await Promise.all([render(viaWorker), render(inProcess)]);
        expect(a.output).toBe(b.output);
        expect(a.output.length).toBeGreaterThan(2);
      });
    }
  }
});
