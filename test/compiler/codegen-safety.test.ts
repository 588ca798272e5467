/**
 * Template text reaches generated code only as literals: a seeded fuzz with hostile text,
 * keys, names and attribute values checks that the code always parses, that text comes out
 * exactly as it went in, and that names never act as code.
 */
import { describe, expect, it } from 'vitest';
import { Script } from 'node:vm';
import { compile } from '../../src/index.js';
import { testEngine } from '../support/engine.js';
import { mulberry32 as rng } from '../support/prng.js';

const engine = testEngine();

const HOSTILE = [
  '*/',
  '/*',
  '//',
  '`',
  '${',
  '\\',
  '"',
  "'",
  '\u2028',
  '\u2029',
  '</script>',
  '");',
  "');",
  '\n',
  '\r',
  '\0',
  'constructor',
  '__proto__',
  'process.exit(1)',
  '日本',
  '😀',
  '\udc80',
  '%s',
  '$',
  ')',
  '(',
  ';',
  '#',
];

function hostileText(next: () => number, max = 12): string {
  let s = '';
  const n = 1 + Math.floor(next() * max);
  for (let i = 0; i < n; i++) s += HOSTILE[Math.floor(next() * HOSTILE.length)];
  return s;
}

describe('generated code safety', () => {
  it('text between tags round-trips exactly, whatever it contains (300 seeded cases)', async () => {
    const next = rng(20261122);
    for (let i = 0; i < 300; i++) {
      const text = hostileText(next).replace(/[{}]/g, '');
      const tpl = `${text}{$x}${text}`;
      const { code } = compile(tpl, { name: `fuzz-${i}` });
      expect(() => new Script(code), `case ${i}`).not.toThrow();
      const { output } = await engine.render(tpl, { name: `fuzz-${i}`, vars: { x: 1 } });
      // one final "\n" is dropped (Smarty 2), nothing else changes
      expect(output, `case ${i}: ${JSON.stringify(tpl)}`).toBe(`${text}1${text}`.replace(/\n$/, ''));
    }
  });

  it('U+2028 and U+2029 in text and string literals are escaped in the code (line numbers stay right)', async () => {
    const tpl = 'a\u2028b{$x|default:"c\u2029d"}e\u2029\u2028f';
    const { code } = compile(tpl, { name: 'separators' });
    expect(code).not.toMatch(/[\u2028\u2029]/);
    expect(code).toContain('\\u2028');
    expect((await engine.render(tpl, { name: 'separators' })).output).toBe('a\u2028bc\u2029de\u2029\u2028f');
  });

  it('quoted keys and string literals with hostile text are data, not code (200 seeded cases)', async () => {
    const next = rng(42);
    for (let i = 0; i < 200; i++) {
      const key = hostileText(next, 6).replace(/['\\{}]/g, '');
      const tpl = `{$r['${key}']}|{'${key}'}`;
      const { output } = await engine.render(tpl, { name: 'keys.tpl', vars: { r: { [key]: 'hit' } } });
      expect(output, JSON.stringify(tpl)).toBe(`hit|${key}`);
    }
  });

  it('variable names like __proto__ and constructor are plain variables', async () => {
    const tpl =
      '{assign var=__proto__ value=1}{$__proto__}|[{$constructor}][{$toString}][{$hasOwnProperty}]|{assign var=constructor value=2}{$constructor}|{$o.__proto__}{$o.constructor}';
    const { output } = await engine.render(tpl, { name: 'proto.tpl', vars: { o: {} } });
    expect(output).toBe('1|[][][]|2|');
  });

  it('hostile template names and attribute values cannot break out of comments or literals', async () => {
    const name = 'x */ process.exit(1) /*\u2028alert(1)//';
    const { code } = compile('{assign var="a" value="*/ x /*\u2028 y"}{$a}', { name });
    expect(() => new Script(code)).not.toThrow();
    const { output } = await engine.render('{assign var="a" value="*/ x /*\u2028 y"}{$a}', { name });
    expect(output).toBe('*/ x /*\u2028 y');
  });

  it('an attribute named __proto__ is refused at compile time', () => {
    const { diagnostics } = compile('{counter __proto__=1}');
    expect(diagnostics.map((d) => d.code)).toContain('E_BAD_ATTR');
  });

  it('the generated code is deterministic', () => {
    const tpl = '{foreach from=$l item=i name=f}{$i|@count}{$smarty.foreach.f.index}{/foreach}';
    expect(compile(tpl, { name: 'a' }).code).toBe(compile(tpl, { name: 'a' }).code);
  });
});

describe('names that are Object.prototype members are not special', () => {
  it('{toString}, {constructor} are unknown tags, not blocks; such attribute and constant names are unknown too', () => {
    expect(compile('{toString}').diagnostics[0].code).toBe('E_UNKNOWN_TAG');
    expect(compile('{constructor}x{/constructor}').diagnostics.map((d) => d.code)).toContain('E_UNKNOWN_TAG');
    expect(compile('{set_memory memory_limit="toString"}').diagnostics[0].code).toBe('E_MEMORY_CLASS');
    expect(compile('{counter constructor=1}').diagnostics[0].code).toBe('E_UNKNOWN_ATTR');
  });

  it('$smarty.const.toString is an undefined constant, not a function', async () => {
    const { output } = await engine.render('[{$smarty.const.toString}][{$smarty.const.hasOwnProperty}]', {
      name: 'c.tpl',
    });
    expect(output).toBe('[][]');
  });
});
