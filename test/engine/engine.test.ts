import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/index.js';
import { FIXED_NOW, FIXED_SEED } from '../support/engine.js';

describe('engine', () => {
  it('recompiles when an included template or a custom function changes', async () => {
    const templates: Record<string, string> = { 'part.tpl': 'one' };
    const functions: Record<string, string> = { f: '{return value="a"}' };
    const engine = createEngine({ templates, functions, workers: 0 });
    try {
      const tpl = '{include file="part.tpl"}|{function name="f" var=r}{$r}';
      expect((await engine.render(tpl)).output).toBe('one|a');
      templates['part.tpl'] = 'two';
      functions.f = '{return value="b"}';
      expect((await engine.render(tpl)).output).toBe('two|b');
    } finally {
      await engine.close();
    }
  });

  it('returns the {return value} as plain data, and the render log', async () => {
    const engine = createEngine({ workers: 0 });
    try {
      const r = await engine.render('{assign var="x.list." value=1}{assign var="x.name" value="n"}{return value=$x}');
      expect(r.returnValue).toEqual({ list: [1], name: 'n' });
      expect(r.logs).toEqual([]);
    } finally {
      await engine.close();
    }
  });

  it('a fixed seed makes random plugins reproducible, and different seeds differ', async () => {
    const tpl = '{assign var=l value=","|explode:"a,b,c,d,e,f,g,h"}{$l|@shuffle}{$l|@implode}';
    const render = async (seed: number[]) => {
      const e = createEngine({ seed, now: () => FIXED_NOW, workers: 0 });
      try {
        return (await e.render(tpl)).output;
      } finally {
        await e.close();
      }
    };
    const a = await render(FIXED_SEED);
    expect(await render(FIXED_SEED)).toBe(a);
    expect(await render(FIXED_SEED.map((x) => x + 1))).not.toBe(a);
    expect(a.slice(1).split('').sort().join('')).toBe('abcdefgh');
  });

  it('keeps PHP key order when variables are given as JSON text', async () => {
    const engine = createEngine({ workers: 0 });
    try {
      const r = await engine.render('{foreach from=$m key=k item=v}{$k}{/foreach}', {
        vars: '{"m":{"b":1,"2":2,"a":3}}',
      });
      expect(r.output).toBe('b2a');
    } finally {
      await engine.close();
    }
  });
});

describe('arrays are values (copy-on-write)', () => {
  it('appending to a copy leaves the original alone, and a private array grows in place', async () => {
    const engine = createEngine({ workers: 0 });
    try {
      const r = await engine.render(
        '{assign var=b value=$a}{append var=b value=3}{$a|@count}/{$b|@count}|{section name=i loop=20000}{append var=big value=$smarty.section.i.index}{/section}{$big|@count}',
        { vars: { a: [1, 2] } },
      );
      expect(r.output).toBe('2/3|20000');
    } finally {
      await engine.close();
    }
  });
});
