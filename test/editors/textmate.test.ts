/**
 * The VS Code extension's TextMate grammar (editors/vscode), tokenized by the engine VS Code
 * itself uses: vscode-textmate over the Oniguruma regular expressions (vscode-oniguruma).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import oniguruma from 'vscode-oniguruma';
import textmate, { type IGrammar, type StateStack } from 'vscode-textmate';

const GRAMMAR = fileURLToPath(new URL('../../editors/vscode/syntaxes/smartcage.tmLanguage.json', import.meta.url));

// VS Code brings its own HTML grammar. A stand-in with one rule, a double-quoted attribute value,
// shows that tags are found inside what HTML tokenizes (the grammar's injection).
const HTML_STAND_IN = {
  scopeName: 'text.html.basic',
  patterns: [{ name: 'string.quoted.double.html', begin: '"', end: '"' }],
};

let grammar: IGrammar;

beforeAll(async () => {
  const wasm = readFileSync(createRequire(import.meta.url).resolve('vscode-oniguruma/release/onig.wasm'));
  await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  const registry = new textmate.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (p) => new oniguruma.OnigScanner(p),
      createOnigString: (s) => new oniguruma.OnigString(s),
    }),
    loadGrammar: async (scope) => {
      if (scope === 'text.html.smartcage') return textmate.parseRawGrammar(readFileSync(GRAMMAR, 'utf8'), GRAMMAR);
      if (scope === 'text.html.basic') return textmate.parseRawGrammar(JSON.stringify(HTML_STAND_IN), 'html.json');
      return null;
    },
  });
  const g = await registry.loadGrammar('text.html.smartcage');
  if (!g) throw new Error('the grammar did not load');
  grammar = g;
});

interface Token {
  /** Offset in the whole source. */
  start: number;
  text: string;
  scopes: string[];
}

function tokenize(source: string): Token[] {
  const out: Token[] = [];
  let state: StateStack = textmate.INITIAL;
  let offset = 0;
  for (const line of source.split('\n')) {
    const r = grammar.tokenizeLine(line, state);
    for (const t of r.tokens)
      out.push({ start: offset + t.startIndex, text: line.slice(t.startIndex, t.endIndex), scopes: t.scopes });
    state = r.ruleStack;
    offset += line.length + 1;
  }
  return out;
}

/** The scopes of the token at the first character of the `nth` occurrence of `text` in the source. */
function scopesOf(source: string, text: string, nth = 0): string[] {
  let at = -1;
  for (let i = 0; i <= nth; i++) {
    at = source.indexOf(text, at + 1);
    if (at < 0) throw new Error(`"${text}" does not occur ${nth + 1} times`);
  }
  return tokenize(source).find((t) => t.start <= at && at < t.start + Math.max(1, t.text.length))!.scopes;
}

describe('TextMate grammar (editors/vscode)', () => {
  it('tag names: built-in control tags and plugin tags, attributes, closing tags', () => {
    const src = '{foreach from=$items item=it}{html5_check var=ok}{/foreach}';
    expect(scopesOf(src, 'foreach')).toContain('keyword.control.smartcage');
    expect(scopesOf(src, 'foreach')).toContain('meta.tag.template.smartcage');
    expect(scopesOf(src, 'from')).toContain('entity.other.attribute-name.smartcage');
    expect(scopesOf(src, 'html5_check')).toContain('entity.name.function.smartcage');
    expect(scopesOf(src, 'foreach', 1)).toContain('keyword.control.smartcage');
    expect(scopesOf(src, '/')).toContain('punctuation.definition.tag.close.smartcage');
  });

  it('a modifier after |, with @ and arguments', () => {
    const src = '{$title|@count|truncate:30:"..."}';
    expect(scopesOf(src, '$title')).toContain('variable.other.smartcage');
    expect(scopesOf(src, 'count')).toContain('support.function.modifier.smartcage');
    expect(scopesOf(src, '@')).toContain('storage.modifier.array.smartcage');
    expect(scopesOf(src, 'truncate')).toContain('support.function.modifier.smartcage');
    expect(scopesOf(src, '|')).toContain('keyword.operator.modifier.smartcage');
    expect(scopesOf(src, '30')).toContain('constant.numeric.smartcage');
    expect(scopesOf(src, '...')).toContain('string.quoted.double.smartcage');
  });

  it('$smarty.foreach.x.index', () => {
    const src = '{$smarty.foreach.x.index}';
    expect(scopesOf(src, '$smarty')).toContain('variable.language.smartcage');
    expect(scopesOf(src, 'index')).toContain('variable.other.property.smartcage');
    expect(scopesOf(src, 'foreach')).toContain('variable.other.property.smartcage');
    expect(scopesOf(src, 'foreach')).not.toContain('keyword.control.smartcage');
  });

  it('a {* comment *} holds no tags, over several lines too', () => {
    const src = 'a {* note {$x}\n still {if} *} {$y}';
    expect(scopesOf(src, ' note {$x}')).toContain('comment.block.smartcage');
    expect(scopesOf(src, ' still {if} ')).toContain('comment.block.smartcage');
    expect(scopesOf(src, '$y')).toContain('variable.other.smartcage');
  });

  it('{literal}...{/literal} content is not tokenized as tags', () => {
    const src = '{literal}\nfunction f() { return {$a}; }\n{/literal}{$after}';
    const inside = tokenize(src).filter((t) => t.scopes.includes('meta.embedded.block.literal.smartcage'));
    expect(inside.map((t) => t.text).join('')).toBe('function f() { return {$a}; }');
    for (const t of inside)
      expect(t.scopes).toEqual([
        'text.html.smartcage',
        'meta.literal.smartcage',
        'meta.embedded.block.literal.smartcage',
      ]);
    expect(scopesOf(src, 'literal', 1)).toContain('keyword.control.smartcage');
    expect(scopesOf(src, '$after')).toContain('variable.other.smartcage');
  });

  it('{if} conditions: word operators and functions; a quoted } does not end a tag', () => {
    const src = '{if $a eq 1 and not is_array($b)}{assign var=x value="}"}{$x}{/if}';
    expect(scopesOf(src, 'if')).toContain('keyword.control.conditional.smartcage');
    expect(scopesOf(src, 'eq')).toContain('keyword.operator.word.smartcage');
    expect(scopesOf(src, 'is_array')).toContain('support.function.smartcage');
    expect(scopesOf(src, '}', 1)).toContain('string.quoted.double.smartcage');
    expect(scopesOf(src, '$x', 0)).toContain('variable.other.smartcage');
  });

  it('variables and backquoted expressions inside double-quoted strings', () => {
    const src = '{assign var=u value="/p/$id/`$row.slug`\\n"}';
    expect(scopesOf(src, '$id')).toContain('variable.other.smartcage');
    expect(scopesOf(src, '$row')).toContain('meta.embedded.expression.smartcage');
    expect(scopesOf(src, 'slug')).toContain('variable.other.property.smartcage');
    expect(scopesOf(src, '\\n')).toContain('constant.character.escape.smartcage');
  });

  it('tags inside what the HTML grammar tokenizes (an attribute value)', () => {
    const src = '<a href="{$url|escape:url}">';
    expect(scopesOf(src, '$url')).toContain('variable.other.smartcage');
    expect(scopesOf(src, '$url')).toContain('string.quoted.double.html');
    expect(scopesOf(src, 'escape')).toContain('support.function.modifier.smartcage');
  });
});
