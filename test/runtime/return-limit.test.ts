/**
 * The render's {return} value is measured inside the isolate before it is copied out
 * (src/runtime/return-size.ts): as the copy will be, every reference counted, with bounds on
 * entries and nesting, and a refusal names the {return} line.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/index.js';
import { checkReturnSize, MAX_RETURN_DEPTH } from '../../src/runtime/return-size.js';
import { PhpArray, PhpObject, type Value } from '../../src/value/value.js';
import { templateError } from '../support/engine.js';

const engine = createEngine({ workers: 1, limits: { cpuMs: 5000, maxOutputChars: 100_000 } });
afterAll(() => engine.close());

const failure = (source: string, vars: Record<string, unknown> = {}) =>
  templateError(engine.render(source, { name: 'ret.tpl', vars }));

const nest = (levels: number): Value => {
  let v: Value = 'leaf';
  for (let i = 0; i < levels; i++) v = PhpArray.fromEntries([['k', v]]);
  return v;
};

describe('checkReturnSize', () => {
  it('counts a shared string once per reference', () => {
    const s = 'x'.repeat(1000);
    expect(() => checkReturnSize(PhpArray.fromList(Array.from({ length: 99 }, () => s)), 100_000)).not.toThrow();
    expect(() => checkReturnSize(PhpArray.fromList(Array.from({ length: 101 }, () => s)), 100_000)).toThrow(
      /more than 100000 characters/,
    );
  });

  it('counts keys, object properties and nested arrays', () => {
    const key = 'k'.repeat(600);
    const map = PhpArray.fromEntries(Array.from({ length: 200 }, (_, i) => [`${key}${i}`, 1] as [string, Value]));
    expect(() => checkReturnSize(map, 100_000)).toThrow(/characters/);
    const o = new PhpObject();
    o.set('a', PhpArray.fromList(['y'.repeat(60_000), 'y'.repeat(60_000)]));
    expect(() => checkReturnSize(o, 100_000)).toThrow(/characters/);
  });

  it('bounds nesting without recursing', () => {
    expect(() => checkReturnSize(nest(MAX_RETURN_DEPTH), 1e9)).not.toThrow();
    expect(() => checkReturnSize(nest(MAX_RETURN_DEPTH + 1), 1e9)).toThrow(/nested deeper than 64/);
    expect(() => checkReturnSize(nest(200_000), 1e9)).toThrow(/nested deeper/);
  });

  it('bounds the entries visited', () => {
    const row = PhpArray.fromList(Array.from({ length: 1000 }, () => 1));
    expect(() => checkReturnSize(PhpArray.fromList(Array.from({ length: 1001 }, () => row)), 1e12)).toThrow(
      /more than 1000000 array elements/,
    );
  });
});

describe('{return} in a render', () => {
  it('a value under the limit comes back as before', async () => {
    const r = await engine.render('{assign var=a value=","|explode:"a,b"}{return value=$a}', { name: 'ok.tpl' });
    expect(r.returnValue).toEqual(['a', 'b']);
  });

  it('many references to one string: E_OUTPUT_LIMIT at the {return} line', async () => {
    const e = await failure(
      '{assign var=s value=""|str_pad:10000:"x"}{section name=i loop=20}{assign var="a." value=$s}{/section}\n\n{return value=$a}',
    );
    expect(e.code).toBe('E_OUTPUT_LIMIT');
    expect(e.line).toBe(3);
    expect(e.template).toBe('ret.tpl');
  });

  it('a deeply nested value: E_SIZE_LIMIT at the {return} line, not a stack overflow', async () => {
    const e = await failure(
      '{section name=i loop=20000}{assign var=t value=null}{assign var=t.k value=$d}{assign var=d value=$t}{/section}\n{return value=$d}',
    );
    expect(e.code).toBe('E_SIZE_LIMIT');
    expect(e.line).toBe(2);
    expect(e.message).toMatch(/nested deeper than 64 levels/);
  });

  it('a {function} may return a big value to its caller: it stays in the isolate', async () => {
    const big =
      '{assign var=s value=""|str_pad:10000:"x"}{section name=i loop=20}{assign var="a." value=$s}{/section}{return value=$a}';
    const e2 = createEngine({ workers: 0, functions: { big }, limits: { maxOutputChars: 100_000 } });
    try {
      const r = await e2.render('{function name="big" var=r}{$r|@count}', { name: 'fn.tpl' });
      expect(r.output).toBe('20');
      const e = await templateError(e2.render('{function name="big" var=r}\n{return value=$r}', { name: 'fn.tpl' }));
      expect(e.code).toBe('E_OUTPUT_LIMIT');
      expect(e.line).toBe(2);
    } finally {
      await e2.close();
    }
  });

  it("an included template's {return} is measured too", async () => {
    const e2 = createEngine({
      workers: 0,
      templates: { inc: '{section name=i loop=20}{assign var="a." value=$s}{/section}\n{return value=$a}' },
      limits: { maxOutputChars: 100_000 },
    });
    try {
      const e = await templateError(
        e2.render('{assign var=s value=""|str_pad:10000:"x"}{include file="inc"}', { name: 'main.tpl' }),
      );
      expect(e.code).toBe('E_OUTPUT_LIMIT');
      expect(e.template).toBe('inc');
      expect(e.line).toBe(2);
    } finally {
      await e2.close();
    }
  });
});
