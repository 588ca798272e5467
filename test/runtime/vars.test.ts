/**
 * Each form of variables reaches the template (src/runtime/vars.ts), in process and through a
 * sandbox worker (where plain data goes as `plain-json` text), and JSON text that PHP's
 * json_decode refuses fails the render with E_BAD_VARS.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine, TemplateError } from '../../src/index.js';

const engines = { 'in process': createEngine({ workers: 0 }), 'through a worker': createEngine({ workers: 1 }) };
afterAll(() => Promise.all(Object.values(engines).map((e) => e.close())));

const TPL = '{foreach from=$m key=k item=v}{$k}={if is_object($v)}object{else}{$v}{/if};{/foreach}|{$n|default:"-"}';

describe.each(Object.entries(engines))('variables %s', (_, engine) => {
  it('none', async () => {
    expect((await engine.render(TPL)).output).toBe('|-');
  });
  it('plain data, and with objects', async () => {
    const vars = { m: { b: 1, a: { x: 1 } }, n: 5 };
    expect((await engine.render(TPL, { vars })).output).toBe('b=1;a=Array;|5');
    expect((await engine.render(TPL, { vars, objects: true })).output).toBe('b=1;a=object;|5');
  });
  it('JSON text keeps PHP key order, and with objects', async () => {
    const vars = '{"m":{"b":1,"2":2,"a":{"x":1}},"n":9223372036854775807}';
    expect((await engine.render(TPL, { vars })).output).toBe('b=1;2=2;a=Array;|9223372036854775807');
    expect((await engine.render(TPL, { vars, objects: true })).output).toBe('b=1;2=2;a=object;|9223372036854775807');
  });
  it('JSON text json_decode refuses is E_BAD_VARS, naming PHP error', async () => {
    const cases: [string, boolean, string][] = [
      ['{"a":"\\ud800"}', false, 'Single unpaired UTF-16 surrogate in unicode escape at offset 6'],
      ['{"m":{"\\u0000a":1}}', true, 'The decoded property name is invalid at offset 6'],
      ['{"a":1,}', false, 'Syntax error at offset 7'],
      [`{"a":${'['.repeat(511)}${']'.repeat(511)}}`, false, 'Maximum stack depth exceeded at offset 515'],
    ];
    for (const [vars, objects, message] of cases) {
      const err = await engine.render(TPL, { vars, objects }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(TemplateError);
      expect((err as TemplateError).code).toBe('E_BAD_VARS');
      expect((err as TemplateError).message).toContain(message);
    }
    // Without objects a NUL key is an array key, as in PHP.
    expect((await engine.render(TPL, { vars: '{"m":{"\\u0000a":1}}' })).output).toBe('\u0000a=1;|-');
  });
});
