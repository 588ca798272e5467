/** What one compile may cost and give back: code size, included source size, diagnostics, frames. */
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/compiler/index.js';
import { MAX_DIAGNOSTICS } from '../../src/compiler/codegen/context.js';

describe('compile limits', () => {
  it('stops a compile whose code grows past maxCodeChars, with E_TEMPLATE_TOO_LARGE at line 0', () => {
    const source = '{section name=i loop=$l}{$l[i]}{/section}'.repeat(2000);
    expect(compile(source).code.length).toBeGreaterThan(200_000);
    const r = compile(source, { name: 'big.tpl', maxCodeChars: 200_000 });
    expect(r.code).toBe('');
    expect(r.diagnostics.map((d) => [d.code, d.name, d.line])).toEqual([['E_TEMPLATE_TOO_LARGE', 'big.tpl', 0]]);
    // Just under the limit compiles.
    const fits = compile(source, { maxCodeChars: compile(source).code.length });
    expect(fits.diagnostics).toEqual([]);
  });

  it('refuses an included template or custom function longer than maxSourceChars at its place', () => {
    const r = compile('ok\n{include file="a.tpl"}\n{function name="f" var=v}', {
      maxSourceChars: 10,
      templates: () => 'x'.repeat(11),
      functions: () => 'y'.repeat(11),
    });
    expect(r.diagnostics.map((d) => [d.code, d.line, d.message])).toEqual([
      ['E_TEMPLATE_TOO_LARGE', 2, 'the template "a.tpl" is larger than 10 characters'],
      ['E_TEMPLATE_TOO_LARGE', 3, 'the custom function "f" is larger than 10 characters'],
    ]);
  });

  it('asks for a missing include once, however often it is included', () => {
    const asked: string[] = [];
    const r = compile('{include file="gone.tpl"}'.repeat(50), { templates: (n) => (asked.push(n), null) });
    expect(asked).toEqual(['gone.tpl']);
    expect(r.diagnostics.every((d) => d.code === 'E_INCLUDE_NOT_FOUND')).toBe(true);
  });

  it(`keeps the first ${MAX_DIAGNOSTICS} diagnostics of a template with thousands of mistakes`, () => {
    for (const source of ['{$a|nosuch}\n'.repeat(5000), '{/if}'.repeat(5000)]) {
      const r = compile(source);
      expect(r.diagnostics.length).toBe(MAX_DIAGNOSTICS + 1);
      expect(r.diagnostics.every((d) => d.severity === 'error')).toBe(true);
    }
  });

  it('keeps frames and messages small whatever the template: a window around the column, names cut', () => {
    const line = `${'a'.repeat(500_000)}{$x|nosuch}${'b'.repeat(500_000)}`;
    const [d] = compile(`first\n${line}`).diagnostics;
    expect([d.code, d.line, d.column]).toEqual(['E_UNKNOWN_MODIFIER', 2, 500_004]);
    expect(d.frame.length).toBeLessThan(600);
    // The caret stands under the modifier, on the window of the line.
    const [, shown, caret] = d.frame.split('\n');
    expect(shown.slice(caret.indexOf('^'), caret.indexOf('^') + 7)).toBe('|nosuch');
    const [long] = compile(`{$x|${'m'.repeat(100_000)}}`).diagnostics;
    expect(long.message.length).toBeLessThan(200);
  });
});
