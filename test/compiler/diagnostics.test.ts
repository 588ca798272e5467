/**
 * What `compile()` reports and in which order (issue 19, diagnostics): {php} refused once, an
 * escape type Smarty would pass through unescaped warned at compile time, and diagnostics in
 * reading order whatever pass found them.
 */
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/index.js';

const report = (source: string) => compile(source, { name: 'page.tpl' }).diagnostics.map((d) => `${d.line}:${d.column} ${d.severity} ${d.code}`);

describe('diagnostics', () => {
  it('{php}...{/php} is one error at the tag, and the PHP inside it causes none of its own', () => {
    expect(report('a\n{php}echo "{$x"; if ($a) { b(); }{/php}\n{$ok}')).toEqual(['2:1 error E_PHP_DISABLED']);
    expect(compile('{php}x{/php}').diagnostics[0]!.message).toMatch(/\{php\} blocks are disabled/);
    // Unclosed: still the one error (the rest of the template is the block).
    expect(report('{php} echo 1;\n{if}')).toEqual(['1:1 error E_PHP_DISABLED']);
    // Text that only looks like it is not a {php} block.
    expect(report('{$php}{php_x}')).toEqual(['1:7 error E_UNKNOWN_TAG']);
  });

  it('an escape type Smarty does not know is a warning at its argument; known types and variables are not', () => {
    expect(report('{$x|escape:"htmll"}')).toEqual(['1:12 warning W_UNKNOWN_ARGUMENT']);
    expect(compile('{$x|escape:"htmll"}').diagnostics[0]!.message).toContain('passes the value through unchanged');
    for (const ok of ['{$x|escape}', '{$x|escape:"html"}', '{$x|escape:"htmlall":"UTF-8"}', '{$x|escape:"javascript"}', '{$x|escape:$t}']) expect(report(ok)).toEqual([]);
  });

  it('diagnostics come sorted by line and column, whichever pass found them', () => {
    // The structure pass reports the stray {/foo} before codegen reports the two lines above it.
    const got = report('{cyle}\n{$x|escape:"nope"}\n{/foo}');
    expect(got).toEqual([...got].sort((a, b) => parseInt(a) - parseInt(b) || parseInt(a.split(':')[1]!) - parseInt(b.split(':')[1]!)));
    expect(got.map((g) => g.split(' ')[0])).toEqual(['1:1', '2:12', '3:1']);
  });
});

describe('no cascades', () => {
  it('a mismatched close is reported once, not again as a block never closed', () => {
    expect(report('{if 1}x{/foreach}')).toEqual(['1:8 error E_MISMATCHED_TAG']);
    expect(report('{foreach from=$l item=i}\n{if $i}{/section}\n{/foreach}')).toEqual(['2:8 error E_MISMATCHED_TAG']);
    // The close ends the block of its name further out, and the {if} inside with it.
    expect(report('{foreach from=$l item=i}{if $i}\n{/foreach}\n{cyle}')).toEqual(['2:1 error E_MISMATCHED_TAG', '3:1 error E_UNKNOWN_TAG']);
    // A block that is simply never closed is still reported.
    expect(report('{if 1}x')).toEqual(['1:1 error E_UNCLOSED_TAG']);
  });
});
