/**
 * V8's own limits inside the isolate end with a code and the template's line (HH-13). A
 * RangeError thrown deep in a plugin has only runtime frames in its ten-frame stack: the
 * line then comes from the position slot that each statement calling a plugin or modifier
 * sets (docs/sandbox.md). Before, these came back with line 0.
 */
import { describe, expect, it } from 'vitest';
import { testEngine, templateError } from '../support/engine.js';

const engine = testEngine({ limits: { cpuMs: 5000, wallMs: 10_000 } });
const rep = (s: string, n: number) => s.repeat(n);
const render = (tpl: string) => engine.render(tpl, { name: 'limits.tpl' });

/** A 9,999-deep array `$v`, built on line 1. */
const DEEP_ARRAY =
  '{assign var=j value=""|str_pad:9999:"["}{assign var=k value=""|str_pad:9999:"]"}{assign var=v value="`$j``$k`"|json_decode:true:10000}';

describe('limit errors raised deep in the runtime name the template line', () => {
  it('{math} nested past 200 levels: E_NESTING_TOO_DEEP at the tag, for parentheses, sums, signs and calls', async () => {
    for (const eq of [
      `${rep('(', 100_000)}x${rep(')', 100_000)}`,
      `x${rep('+x', 100_000)}`,
      `${rep('- ', 100_000)}x`,
      `${rep('abs(', 300)}x${rep(')', 300)}`,
      `-(${rep('x+', 200)}x)`,
    ]) {
      const e = await templateError(render(`a\nb\n  {math equation="${eq}" x=1}\n`));
      expect([e.code, e.template, e.line, e.column], eq.slice(0, 20)).toEqual([
        'E_NESTING_TOO_DEEP',
        'limits.tpl',
        3,
        3,
      ]);
      expect(e.message).toBe('{math}: the equation nests more than 200 levels deep');
    }
  });

  it('{math} at 200 levels still computes', async () => {
    // 199 parentheses or signs around x are 200 levels with x itself; a sum of 201 terms is 200 additions.
    const r = await render(
      `{math equation="${rep('(', 199)}x${rep(')', 199)}" x=2}|{math equation="x${rep('+x', 200)}" x=1}|{math equation="${rep('- ', 199)}x" x=3}|{math equation="-(${rep('x+', 199)}x)" x=1}`,
    );
    expect(r.output).toBe('2|201|-3|-200');
  });

  it('debug_print_var of a 9,999-deep array: Invalid string length is E_SIZE_LIMIT at its line', async () => {
    const e = await templateError(render(`${DEEP_ARRAY}\n\n{$v|@debug_print_var}`));
    expect([e.code, e.line]).toEqual(['E_SIZE_LIMIT', 3]);
    expect(e.message).toContain('Invalid string length');
  });

  it('msgpack_pack refuses a result past the string limit before allocating it', async () => {
    const e = await templateError(
      render(
        '{assign var=s value=""|str_pad:9000000:"x"}{append var=a value=$s}{append var=a value=$s}\n{$a|@msgpack_pack|strlen}',
      ),
    );
    expect([e.code, e.line]).toEqual(['E_SIZE_LIMIT', 2]);
    expect(e.message).toMatch(/^msgpack_pack would build a string of \d+ characters \(limit 16777216\)$/);
    // One below the limit still packs.
    const r = await render(
      '{assign var=s value=""|str_pad:8000000:"x"}{append var=a value=$s}{append var=a value=$s}{$a|@msgpack_pack|strlen}',
    );
    expect(r.output).toBe(String(1 + 2 * (5 + 8_000_000)));
  });

  it("a string doubled past V8's maximum length is E_SIZE_LIMIT at the line that doubles it", async () => {
    const e = await templateError(
      render('{assign var=s value="x"}{section name=i loop=40}\n{assign var=s value="`$s``$s`"}{/section}'),
    );
    expect([e.code, e.line]).toEqual(['E_SIZE_LIMIT', 2]);
    expect(e.message).toBe('a value grew past the size the sandbox allows (Invalid string length)');
  });
});
