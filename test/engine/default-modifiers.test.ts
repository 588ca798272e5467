/**
 * createEngine({ defaultModifiers }): Smarty 2's $default_modifiers. What they apply to is
 * recorded with Smarty 2.6.33 (test/conformance/smarty2/default-modifiers); this checks the
 * option itself: opt-in, checked when the engine is made, off the compile cache of other engines.
 */
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/index.js';
import { compile } from '../../src/compiler/index.js';
import { INLINE_MAX_CHARS } from '../../src/compiled-templates.js';

describe('defaultModifiers', () => {
  it('applies to every variable used as a value, and |smarty:nodefaults keeps them off', async () => {
    const engine = createEngine({ workers: 0, defaultModifiers: ['escape:"html"'] });
    try {
      const r = await engine.render(
        '{$x}|{$x|smarty:nodefaults}|{"$x"}|{assign var=y value=$x|smarty:nodefaults}{$y}',
        { vars: { x: '<b>' } },
      );
      expect(r.output).toBe('&lt;b&gt;|<b>|<b>|&lt;b&gt;');
    } finally {
      await engine.close();
    }
  });

  it('reaches a template compiled on the compile thread too', async () => {
    const engine = createEngine({ workers: 0, defaultModifiers: ['escape:"html"'] });
    try {
      const big = `${'{* padding *}'.repeat(Math.ceil(INLINE_MAX_CHARS / 13) + 1)}{$x}`;
      expect(big.length).toBeGreaterThan(INLINE_MAX_CHARS);
      expect((await engine.render(big, { vars: { x: '<b>' } })).output).toBe('&lt;b&gt;');
    } finally {
      await engine.close();
    }
  });

  it('is off by default, and |smarty:nodefaults then changes nothing', async () => {
    const engine = createEngine({ workers: 0 });
    try {
      expect((await engine.render('{$x}|{$x|smarty:nodefaults}|{$x|smarty}', { vars: { x: '<b>' } })).output).toBe(
        '<b>|<b>|<b>',
      );
    } finally {
      await engine.close();
    }
  });

  it('leaves the generated code of a compile without them as it was', () => {
    const template = '{$x|upper}{if $a AND $b}{$c}{/if}';
    expect(compile(template, { defaultModifiers: [] }).code).toBe(compile(template).code);
    expect(compile('{$x|smarty:nodefaults}').code).toBe(compile('{$x}').code);
  });

  it('refuses a list that does not read, or names a modifier there is not, when the engine is made', () => {
    expect(() => createEngine({ workers: 0, defaultModifiers: ['escape:'] })).toThrow(
      /defaultModifiers.*missing after ":"/,
    );
    expect(() => createEngine({ workers: 0, defaultModifiers: ['no_such_modifier'] })).toThrow(
      /defaultModifiers.*unknown modifier "no_such_modifier"/,
    );
    expect(() => createEngine({ workers: 0, defaultModifiers: 'escape' as unknown as string[] })).toThrow(
      /list of modifier strings/,
    );
    expect(() => createEngine({ workers: 0, defaultModifiers: ['{$y}'] })).toThrow(/defaultModifiers/);
  });

  it('a compile given a list it cannot read fails with E_DEFAULT_MODIFIERS, not an internal error', () => {
    expect(compile('{$x}', { defaultModifiers: ['escape:"html"}{$y'] }).diagnostics[0]).toMatchObject({
      code: 'E_DEFAULT_MODIFIERS',
    });
  });
});
