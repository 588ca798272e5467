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
