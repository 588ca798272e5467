/** A modifier's TypeError becomes null and a warning whose text names the function once (PHP's own text). */
import { expect, it } from 'vitest';
import { testEngine } from '../support/engine.js';

it("a modifier's TypeError warning is PHP's text, not prefixed again with the modifier's name", async () => {
  const r = await testEngine().render('{$a|@number_format}', { vars: { a: [1] } });
  expect(r.output).toBe('');
  expect(r.warnings).toEqual([
    'number_format(): Argument #1 ($num) must be of type float, array given; the result is null',
  ]);
});

it("json_decode's JSON_THROW_ON_ERROR: PHP's JsonException becomes null and a warning naming PHP's error", async () => {
  const e = testEngine();
  const r = await e.render('{$j|json_decode:true:512:4194304|@count}|{$k|json_decode:true:512:4194304|@count}', {
    vars: { j: '{"a":1,}', k: '{"a":1}' },
  });
  expect(r.output).toBe('0|1');
  expect(r.warnings).toEqual(['json_decode(): JsonException (Syntax error); the result is null']);
  // Without the flag an error is only null, as in PHP.
  expect((await e.render('{$j|json_decode|@count}', { vars: { j: '"\\ud800"' } })).warnings ?? []).toEqual([]);
});
