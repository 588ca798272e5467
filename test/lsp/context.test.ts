/** The language server's pieces without a session: where a place is in a tag, completion contexts, and diagnostic ranges. */
import { describe, expect, it } from 'vitest';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { compile } from '../../src/compiler/index.js';
import { completionsAt } from '../../src/lsp/completion.js';
import { toLspDiagnostics } from '../../src/lsp/diagnostics.js';
import { Language } from '../../src/lsp/language.js';
import { scanTo } from '../../src/lsp/tag-context.js';

const lang = new Language();
/** Completion labels at the end of `source`. */
const labels = (source: string) => completionsAt(source, source.length, lang).map((i) => i.label);

describe('language server: where a place is', () => {
  it('comments and {literal} blocks hold no tags; quotes hide } and |', () => {
    expect(scanTo('{* {$x| *}{$y|', 14).open).toMatchObject({ start: 10, text: '$y|' });
    expect(scanTo('{literal}{$x|', 13).open).toBeNull();
    expect(scanTo('{ literal }{$x|{/literal}{$z', 28).open).toMatchObject({ start: 25, text: '$z' });
    expect(scanTo('{assign var=x value="}|\\"" ', 27).open).toEqual({
      start: 0,
      text: 'assign var=x value="____" ',
      inString: false,
    });
    expect(scanTo('{assign value="ab', 17).open).toMatchObject({ inString: true });
    expect(scanTo('{foreach from=$a item=x}{$x}{/foreach}{', 39)).toEqual({
      before: [
        { name: 'foreach', closing: false },
        { name: 'foreach', closing: true },
      ],
      open: { start: 38, text: '', inString: false },
    });
  });

  it('offers each kind of name only where it belongs', () => {
    expect(labels('{$x|')).toContain('upper');
    expect(labels('{$x|@')).toContain('count');
    expect(labels('{if $a || ')).toEqual([]);
    expect(labels('{assign value="a|')).toEqual([]);
    expect(labels('{assign var=')).toEqual([]);
    expect(labels('{assign var=x ')).toEqual(['value']);
    expect(labels('text | ')).toEqual([]);
    expect(labels('{* {$x| ')).toEqual([]);
    expect(labels('{if $x}{capture name=c}{/if}{/')).toEqual([]);
    expect(labels('{if $x}{capture name=c}{/')).toEqual(['capture', 'if']);
  });
});

describe('language server: diagnostic ranges', () => {
  it('go through the offset: a lone CR is a line break for LSP, not for the compiler', () => {
    const text = 'a\rb\n{$x|bogus}';
    const doc = TextDocument.create('file:///t.tpl', 'smartcage', 1, text);
    const [d] = toLspDiagnostics(doc, 't.tpl', compile(text, { name: 't.tpl' }).diagnostics);
    expect(d).toMatchObject({
      code: 'E_UNKNOWN_MODIFIER',
      range: { start: { line: 2, character: 3 }, end: { line: 2, character: 9 } },
    });
  });

  it("an included template's problem shows at the start, with its place", () => {
    const text = 'x\n{include file="inc.tpl"}';
    const doc = TextDocument.create('file:///t.tpl', 'smartcage', 1, text);
    const r = compile(text, { name: 't.tpl', templates: () => '{$a|nope}' });
    expect(toLspDiagnostics(doc, 't.tpl', r.diagnostics)).toMatchObject([
      {
        code: 'E_UNKNOWN_MODIFIER',
        range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
        message: 'inc.tpl:1:4: unknown modifier "nope"',
      },
    ]);
  });
});
