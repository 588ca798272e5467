/**
 * What `compile()` reports and in which order (issue 19, diagnostics): {php} refused once, an
 * escape type Smarty would pass through unescaped warned at compile time, and diagnostics in
 * reading order whatever pass found them.
 */
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/index.js';

const report = (source: string) =>
  compile(source, { name: 'page.tpl' }).diagnostics.map((d) => `${d.line}:${d.column} ${d.severity} ${d.code}`);

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
    for (const ok of [
      '{$x|escape}',
      '{$x|escape:"html"}',
      '{$x|escape:"htmlall":"UTF-8"}',
      '{$x|escape:"javascript"}',
      '{$x|escape:$t}',
    ])
      expect(report(ok)).toEqual([]);
  });

  it("text after a closing tag's name is a warning, as Smarty 2 ignores it (D314); a bare close is not", () => {
    expect(report('{foreach from=$l item=i}{/foreach name=x}\n{if 1}{/if $y}')).toEqual([
      '1:25 warning W_IGNORED_TEXT',
      '2:7 warning W_IGNORED_TEXT',
    ]);
    expect(compile('{if 1}{/if $y}').diagnostics[0]!.message).toContain('"$y" after {/if} is ignored');
    expect(report('{if 1}{/if}{foreach from=$l item=i}{/foreach\n}')).toEqual([]);
  });

  it('a brace inside {if} that Smarty 2 reads as text is a warning at the token (D322); a quoted string is not', () => {
    expect(report('{if {$p.email}<a>{/if}\n{if !{$x}1{elseif $a && {$b|escape}2{/if}')).toEqual([
      '1:5 warning W_TEXT_CONDITION',
      '2:6 warning W_TEXT_CONDITION',
      '2:25 warning W_TEXT_CONDITION',
    ]);
    expect(compile('{if {$p.email}<a>{/if}').diagnostics[0]!.message).toContain('(write {if $p.email})');
    expect(report('{if "{$x"}1{/if}{if "a$x" == $y}2{/if}')).toEqual([]);
  });

  it('a method call in an unquoted attribute is an error with the porting hint (D323); text Smarty 2 keeps is not', () => {
    expect(
      report('{assign var=x value=$o->getId()}{foreach from=$o->items()|@array_reverse item=i}{/foreach}'),
    ).toEqual(['1:21 error E_SYNTAX', '1:47 error E_SYNTAX']);
    expect(compile('{assign var=x value=$o->getId()}').diagnostics[0]!.message).toMatch(
      /\$o->getId\(\) calls a method\. templates cannot call methods/,
    );
    expect(report('{assign var=x value=$o->p}{assign var=y value=$o->p()x}{assign var=z value=$o.get()}')).toEqual([]);
  });

  it('diagnostics come sorted by line and column, whichever pass found them', () => {
    // The structure pass reports the stray {/foo} before codegen reports the two lines above it.
    const got = report('{cyle}\n{$x|escape:"nope"}\n{/foo}');
    expect(got).toEqual(
      [...got].sort((a, b) => parseInt(a) - parseInt(b) || parseInt(a.split(':')[1]!) - parseInt(b.split(':')[1]!)),
    );
    expect(got.map((g) => g.split(' ')[0])).toEqual(['1:1', '2:12', '3:1']);
  });
});

describe('no cascades', () => {
  it('a mismatched close is reported once, not again as a block never closed', () => {
    expect(report('{if 1}x{/foreach}')).toEqual(['1:8 error E_MISMATCHED_TAG']);
    expect(report('{foreach from=$l item=i}\n{if $i}{/section}\n{/foreach}')).toEqual(['2:8 error E_MISMATCHED_TAG']);
    // The close ends the block of its name further out, and the {if} inside with it.
    expect(report('{foreach from=$l item=i}{if $i}\n{/foreach}\n{cyle}')).toEqual([
      '2:1 error E_MISMATCHED_TAG',
      '3:1 error E_UNKNOWN_TAG',
    ]);
    // A block that is simply never closed is still reported.
    expect(report('{if 1}x')).toEqual(['1:1 error E_UNCLOSED_TAG']);
  });
});

describe('the parser resynchronises at the next tag', () => {
  it('reports every independent error of a file in one run, in reading order', () => {
    const src = [
      '{if $a ==}',
      ' x',
      '{/if}',
      '{foreach from= item=i}',
      ' {$i}',
      '{/foreach}',
      '{$x|nosuchmod}',
      '{assign var=}',
      '{if $b}ok{/if}',
      '{/section}',
    ].join('\n');
    expect(report(src)).toEqual([
      '1:5 error E_IF_SYNTAX',
      '4:1 error E_SYNTAX',
      '7:4 error E_UNKNOWN_MODIFIER',
      '8:1 error E_SYNTAX',
      '10:1 error E_UNEXPECTED_CLOSE',
    ]);
  });

  it('an unreadable opener still pairs with its close: no "never closed", no "never opened"', () => {
    expect(report('{if $a ==}x{else}y{/if}')).toEqual(['1:5 error E_IF_SYNTAX']);
    expect(report('{foreach from= item=i}{$i}{foreachelse}none{/foreach}')).toEqual(['1:1 error E_SYNTAX']);
    expect(report('{if 1}{elseif $a ==}{/if}')).toHaveLength(1);
  });

  it('errors inside the body of an unreadable block are still found', () => {
    expect(report('{foreach from= item=i}\n{$i|nosuchmod}\n{/foreach}')).toEqual([
      '1:1 error E_SYNTAX',
      '2:4 error E_UNKNOWN_MODIFIER',
    ]);
  });

  it('a tag cut off by the end of the file, or an unclosed comment, ends recovery with its one error', () => {
    expect(report('a {if $x\n  and $y\n')).toHaveLength(1);
    expect(report('{* never closed\n{if $a ==}')).toHaveLength(1);
  });

  it('stops after 20 syntax errors in a file, so a broken file costs a bounded number of re-parses', () => {
    const diags = report(Array.from({ length: 60 }, () => '{assign var=}').join('\n'));
    expect(diags).toHaveLength(20);
    expect(diags.at(-1)).toBe('20:1 error E_SYNTAX');
  });

  it('positions after a recovered tag are exact (the blanked tag keeps its line breaks)', () => {
    expect(report('{assign var=\n\n}\n\n{$x|nosuchmod}')).toEqual([
      '1:1 error E_SYNTAX',
      '5:4 error E_UNKNOWN_MODIFIER',
    ]);
  });
});

describe('a diagnostic is one line', () => {
  it('a line break quoted from the template is written as an escape', () => {
    const [d] = compile('{assign var=\n"x" =}', { name: 'page.tpl' }).diagnostics;
    expect(d!.message).toBe('unrecognized tag: {assign var=\\n"x" =}');
    expect(d!.message).not.toMatch(/[\r\n\u2028\u2029]/);
  });
});
