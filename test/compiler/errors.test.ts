/** Compile errors: name, line, column, a code frame and a stable code. */
import { describe, expect, it } from 'vitest';
import { compile, TemplateError } from '../../src/index.js';
import { testEngine } from '../support/engine.js';

const engine = testEngine();

async function renderError(tpl: string, name = 'page.tpl'): Promise<TemplateError> {
  try {
    await engine.render(tpl, { name });
  } catch (e) {
    if (e instanceof TemplateError) return e;
    throw e;
  }
  throw new Error('expected a TemplateError');
}

describe('compile errors', () => {
  it('an unclosed {foreach} gives name, line, column, code and a frame', async () => {
    const e = await renderError('<ul>\n  {foreach from=$items item=i}\n  <li>{$i}</li>\n</ul>\n');
    expect(e.code).toBe('E_UNCLOSED_TAG');
    expect([e.template, e.line, e.column]).toEqual(['page.tpl', 2, 3]);
    expect(e.format()).toBe(
      [
        'page.tpl:2:3: error E_UNCLOSED_TAG: {foreach} is never closed with {/foreach}',
        '  1 | <ul>',
        '> 2 |   {foreach from=$items item=i}',
        '    |   ^^^^^^^^^',
      ].join('\n'),
    );
  });

  it('a function not allowed in {if} names the allowed ones', async () => {
    const e = await renderError('{if $a}\n{if strlen($s) > 3}x{/if}\n{/if}');
    expect(e.code).toBe('E_IF_FUNCTION');
    expect([e.line, e.column]).toEqual([2, 5]);
    expect(e.message).toContain('is_null, count, is_array, in_array, isset, is_object');
  });

  it('an unknown tag suggests the nearest name', () => {
    const { diagnostics } = compile('{cyle values="a,b"}');
    expect(diagnostics[0]).toMatchObject({ code: 'E_UNKNOWN_TAG', line: 1, column: 1 });
    expect(diagnostics[0].message).toContain('did you mean "cycle"');
  });

  it('a plugin of the language that is not built yet fails at compile time, never silently', () => {
    const { diagnostics } = compile('ok\n{site_sync from_site_key="a"}');
    expect(diagnostics[0]).toMatchObject({ code: 'E_NOT_IMPLEMENTED', line: 2, column: 1 });
    expect(diagnostics[0].message).toContain('{site_sync}');
  });

  it('collects several errors from one template', () => {
    const { diagnostics } = compile('{if strlen($a)}{/if}{nosuch}{section name=s bogus=1}{/section}');
    expect(diagnostics.map((d) => d.code)).toEqual(['E_IF_FUNCTION', 'E_UNKNOWN_TAG', 'E_UNKNOWN_ATTR']);
  });

  it('syntax errors point into the tag', () => {
    const { diagnostics } = compile('line one\n{$a|truncate:}');
    expect(diagnostics[0]).toMatchObject({ code: 'E_MODIFIER_ARG', line: 2 });
  });

  it('runtime errors map back to the template line through the line table', async () => {
    const e = await renderError('a\nb {if 1}\n  {$x/$zero}\n{/if}', 'calc.tpl');
    expect(e).toMatchObject({ code: 'E_DIVISION_BY_ZERO', template: 'calc.tpl', line: 3, column: 3 });
  });

  it('runtime errors inside an included template name that template', async () => {
    const { createEngine } = await import('../../src/index.js');
    const e2 = createEngine({ templates: { 'part.tpl': 'x\n{$a%$b}' }, workers: 0 });
    try {
      await expect(e2.render('{include file="part.tpl" a=1 b=0}', { name: 'main.tpl' })).rejects.toMatchObject({
        code: 'E_DIVISION_BY_ZERO',
        template: 'part.tpl',
        line: 2,
        column: 1,
      });
    } finally {
      e2.close();
    }
  });

  it('an endless loop ends with a timeout error', async () => {
    const { createEngine } = await import('../../src/index.js');
    const e2 = createEngine({ timeoutMs: 100, workers: 0 });
    try {
      await expect(e2.render('{section name=a loop=1000000000}{section name=b loop=1000000000}x{/section}{/section}')).rejects.toMatchObject({
        code: 'E_CPU_TIMEOUT',
      });
    } finally {
      e2.close();
    }
  });
});
