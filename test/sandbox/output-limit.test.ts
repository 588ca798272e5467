/**
 * The output limit is checked in every loop as it runs (src/compiler/codegen/loop.ts): a loop
 * that prints without end stops with E_OUTPUT_LIMIT at its own line as soon as the output
 * passes the limit, rather than filling the heap until the CPU or memory limit.
 * The CPU budget here is generous, so without the check these renders would end E_CPU_TIMEOUT.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/index.js';
import { templateError } from '../support/engine.js';

const engine = createEngine({ workers: 0, limits: { cpuMs: 5000, maxOutputChars: 10_000 } });
afterAll(() => engine.close());

const failure = (source: string, vars: Record<string, unknown> = {}) =>
  templateError(engine.render(source, { name: 'out.tpl', vars }));

describe('the output limit inside loops', () => {
  it('an endless section that prints stops at the limit and names its line', async () => {
    const e = await failure('head\n{section name=i loop=1000000000}{$smarty.section.i.index},{/section}\n');
    expect(e.code).toBe('E_OUTPUT_LIMIT');
    expect(e.line).toBe(2);
    expect(e.message).toMatch(/over the limit of 10000/);
  });

  it('a foreach over a big list, nested in a section, stops the same way', async () => {
    const e = await failure('{section name=i loop=1000000}\n{foreach from=$big item=v}{$v}{/foreach}{/section}', {
      big: Array.from({ length: 1000 }, (_, i) => `item${i}`),
    });
    expect(e.code).toBe('E_OUTPUT_LIMIT');
    expect(e.line).toBe(2);
  });

  it('a capture that grows in a loop is held to the same limit', async () => {
    const e = await failure(
      '{section name=i loop=1000000000}{capture name=c}{$smarty.capture.c}xxxxxxxxxx{/capture}{/section}',
    );
    expect(e.code).toBe('E_OUTPUT_LIMIT');
  });

  it('a loop that stays under the limit renders as before', async () => {
    const r = await engine.render(
      '{section name=i loop=900}{$smarty.section.i.index|string_format:"%04d"}|{/section}',
      { name: 'ok.tpl' },
    );
    expect(r.output.length).toBe(900 * 5);
  });

  it('the engine keeps working after the limit (the isolate is replaced)', async () => {
    await failure('{section name=i loop=1000000000}x{/section}');
    expect((await engine.render('{$a}', { name: 'after.tpl', vars: { a: 'fine' } })).output).toBe('fine');
  });
});
