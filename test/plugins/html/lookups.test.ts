/**
 * Names a template passes as a modifier's argument are looked up in the plugin's own tables only:
 * `constructor`, `toString`, `__proto__`... are Object.prototype's, not escape types, charsets or
 * encodings (security catalogue CG-19). And a modifier that warns does so through the render.
 */
import { describe, expect, it } from 'vitest';
import { testEngine } from '../../support/engine.js';

const engine = testEngine();
const JS_NAMES = ['constructor', 'toString', 'valueOf', 'hasOwnProperty', '__proto__', '__defineGetter__'];

describe('table lookups by a template-given name', () => {
  it.each(JS_NAMES)('escape:%j prints the value unchanged, as Smarty does for an unknown type', async (name) => {
    const r = await engine.render(`[{$x|escape:'${name}'}][{$x|escape:'${name}'|@json_encode}]`, { vars: { x: 'a<' } });
    expect(r.output).toBe('[a<]["a<"]');
  });

  it.each(JS_NAMES)('charset %j is unknown: PHP warns and assumes UTF-8', async (name) => {
    const r = await engine.render(
      `[{$x|escape:'html':'${name}'}][{$x|escape:'htmlall':'${name}'}][{$y|html_entity_decode:3:'${name}'}]`,
      { vars: { x: 'a<', y: '&lt;' } },
    );
    expect(r.output).toBe('[a&lt;][a&lt;][<]');
    expect(r.warnings).toHaveLength(3);
    expect(r.warnings[0]).toContain(`Charset "${name}" is not supported`);
  });

  it.each(JS_NAMES)('mb_convert_encoding:%j is not an encoding', async (name) => {
    const r = await engine.render(`[{$x|mb_convert_encoding:'${name}'}][{$x|mb_convert_encoding:'UTF-8':'${name}'}]`, {
      vars: { x: 'a' },
    });
    expect(r.output).toBe('[][]');
  });
});

describe("a modifier's warning", () => {
  it('trim ranges PHP finds invalid warn as PHP does instead of failing the render', async () => {
    const r = await engine.render("[{$x|trim:'a..'}][{$x|rtrim:'z..a'}][{$x|ltrim:'..'}]", { vars: { x: 'a<' } });
    expect(r.output).toBe('[<][a<][a<]');
    expect(r.warnings.map((w) => w.replace(/:.*/, ''))).toEqual(['trim()', 'rtrim()', 'ltrim()']);
  });
});
