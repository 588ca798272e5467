/** Compile errors: name, line, column, a code frame and a stable code. */
import { describe, expect, it } from 'vitest';
import { compile, TemplateError } from '../../src/index.js';
import { testEngine } from '../support/engine.js';
import { FUNCTION_NAMES } from '../../src/plugins/catalog.js';
import { PluginSet } from '../../src/plugins/plugin-set.js';
import { describeUnknown } from '../../src/compiler/codegen/unknown-names.js';

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

  it("Smarty 2's empty() and sizeof() in {if} say what to write instead", () => {
    const { diagnostics } = compile('{if empty($x)}a{/if}{if sizeof($y)}b{/if}');
    expect(diagnostics.map((d) => [d.code, d.column])).toEqual([
      ['E_IF_FUNCTION', 5],
      ['E_IF_FUNCTION', 25],
    ]);
    expect(diagnostics[0]!.message).toContain('for empty($x) write !$x');
    expect(diagnostics[1]!.message).toContain('write count() for sizeof()');
  });

  it('an unknown tag suggests the nearest name', () => {
    const { diagnostics } = compile('{cyle values="a,b"}');
    expect(diagnostics[0]).toMatchObject({ code: 'E_UNKNOWN_TAG', line: 1, column: 1 });
    expect(diagnostics[0].message).toContain('did you mean "cycle"');
  });

  it('every tag of the language is built: none compiles to E_NOT_IMPLEMENTED', () => {
    const missing = FUNCTION_NAMES.filter((name) =>
      compile(`{${name}}`).diagnostics.some((d) => d.code === 'E_NOT_IMPLEMENTED'),
    );
    expect(missing).toEqual([]);
  });

  it('a name of the language without an implementation is E_NOT_IMPLEMENTED, not unknown', () => {
    // Every catalogue tag is built now; a plugin set without one shows what a later catalogue
    // name gets until it is built.
    expect(describeUnknown('tag', 'site_sync', PluginSet.builtIn([]))).toMatchObject({
      code: 'E_NOT_IMPLEMENTED',
      message: expect.stringContaining('{site_sync}'),
    });
    expect(describeUnknown('tag', 'site_synk', PluginSet.builtIn([]))).toMatchObject({ code: 'E_UNKNOWN_TAG' });
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
      await e2.close();
    }
  });

  it('an endless loop ends with a timeout error', async () => {
    const { createEngine } = await import('../../src/index.js');
    const e2 = createEngine({ timeoutMs: 100, workers: 0 });
    try {
      await expect(
        e2.render('{section name=a loop=1000000000}{section name=b loop=1000000000}x{/section}{/section}'),
      ).rejects.toMatchObject({
        code: 'E_CPU_TIMEOUT',
      });
    } finally {
      await e2.close();
    }
  });
});
