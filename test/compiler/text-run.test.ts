/**
 * The grammar's Text, Comment and Literal rules find the end of their run with indexOf, and its
 * names and whitespace with a loop, and move Peggy's position themselves (grammar/template.peggy):
 * the only places the grammar reaches into the generated parser. These check that every run
 * comes out whole, with the right offsets, wherever it stands, and that an unclosed comment or
 * literal still names its opening tag.
 */
import { describe, expect, it } from 'vitest';
import { parseTemplate } from '../../src/compiler/parse.js';
import { SourceText } from '../../src/errors.js';

const parse = (text: string) => {
  const r = parseTemplate(new SourceText('t.tpl', text));
  expect(r.diagnostics).toEqual([]);
  return r.nodes.map((n) => ({
    type: n.type,
    start: n.start,
    end: n.end,
    ...(n.type === 'Text' ? { value: (n as { value: string }).value } : {}),
  }));
};

describe('text runs', () => {
  it('a template with no tag is one run', () => {
    expect(parse('plain } text\n')).toEqual([{ type: 'Text', start: 0, end: 13, value: 'plain } text\n' }]);
  });

  it('runs before, between and after tags keep their offsets', () => {
    expect(parse('a{$x}bc{* c *}d')).toEqual([
      { type: 'Text', start: 0, end: 1, value: 'a' },
      { type: 'Output', start: 1, end: 5 },
      { type: 'Text', start: 5, end: 7, value: 'bc' },
      { type: 'Comment', start: 7, end: 14 },
      { type: 'Text', start: 14, end: 15, value: 'd' },
    ]);
  });

  it('a one-character run, and tags with no text between them', () => {
    expect(parse('{$a}{$b}x')).toEqual([
      { type: 'Output', start: 0, end: 4 },
      { type: 'Output', start: 4, end: 8 },
      { type: 'Text', start: 8, end: 9, value: 'x' },
    ]);
  });

  it('text inside {literal} stays the literal, and text around it is cut at the braces', () => {
    expect(parse('x{literal}{a}{/literal}y')).toEqual([
      { type: 'Text', start: 0, end: 1, value: 'x' },
      { type: 'Literal', start: 1, end: 23 },
      { type: 'Text', start: 23, end: 24, value: 'y' },
    ]);
  });

  it('surrogate pairs, lone surrogates and a long run come out unchanged', () => {
    const long = `${'日本語 😀 \ud800 '.repeat(5000)}`;
    const nodes = parse(`${long}{$x}${long}`);
    expect(nodes.map((n) => n.type)).toEqual(['Text', 'Output', 'Text']);
    expect(nodes[0]).toEqual({ type: 'Text', start: 0, end: long.length, value: long });
    expect(nodes[2]).toEqual({ type: 'Text', start: long.length + 4, end: 2 * long.length + 4, value: long });
  });

  it('a syntax error after text is still placed at its tag', () => {
    const r = parseTemplate(new SourceText('t.tpl', 'hello\n{if}'));
    expect(r.diagnostics[0]).toMatchObject({ code: 'E_IF_EMPTY', line: 2 });
  });
});

describe('comments and literal blocks', () => {
  const literalValue = (text: string) =>
    (parseTemplate(new SourceText('t.tpl', text)).nodes[0] as { value?: string }).value;

  it('a comment ends at the first *} after its opening, braces inside or not', () => {
    expect(parse('{**}{* a { b } c *}x')).toEqual([
      { type: 'Comment', start: 0, end: 4 },
      { type: 'Comment', start: 4, end: 19 },
      { type: 'Text', start: 19, end: 20, value: 'x' },
    ]);
  });

  it('a literal block ends at the first end tag, whitespace inside that tag allowed', () => {
    expect(literalValue('{literal}{/literal}')).toBe('');
    expect(literalValue('{literal}a { b } {/lit} c{/literal}{/literal}')).toBe('a { b } {/lit} c');
    expect(literalValue('{ literal }x{ \n/literal\t}')).toBe('x');
    expect(parse('{literal}x{\t/literal  }y')).toEqual([
      { type: 'Literal', start: 0, end: 23 },
      { type: 'Text', start: 23, end: 24, value: 'y' },
    ]);
  });

  it('an end tag that is not exactly /literal does not end the block (no space after the slash)', () => {
    expect(literalValue('{literal}{/Literal}{/literalx}{/ literal}{/literal}')).toBe(
      '{/Literal}{/literalx}{/ literal}',
    );
  });

  it('an unclosed comment or literal is reported at its opening tag', () => {
    const comment = parseTemplate(new SourceText('t.tpl', 'ab\n  {* never closed { }'));
    expect(comment.diagnostics[0]).toMatchObject({ code: 'E_UNCLOSED_COMMENT', line: 2, column: 3 });
    const literal = parseTemplate(new SourceText('t.tpl', 'x{literal}{/literal'));
    expect(literal.diagnostics[0]).toMatchObject({ code: 'E_UNCLOSED_LITERAL', line: 1, column: 2 });
  });

  it('{*} is a comment tag (Smarty 2: its content starts and ends with *), unless a later *} closes it', () => {
    expect(parseTemplate(new SourceText('t.tpl', 'a{*}b')).nodes.map((n) => n.type)).toEqual([
      'Text',
      'Comment',
      'Text',
    ]);
    expect(parseTemplate(new SourceText('t.tpl', 'a{*}b*}c')).nodes.map((n) => n.type)).toEqual([
      'Text',
      'Comment',
      'Text',
    ]);
    expect(parseTemplate(new SourceText('t.tpl', 'a{*}b*}c')).nodes[2]).toMatchObject({ value: 'c' });
    expect(parseTemplate(new SourceText('t.tpl', 'a{* b }')).diagnostics[0]).toMatchObject({
      code: 'E_UNCLOSED_COMMENT',
    });
  });
});

describe('names, keys and whitespace', () => {
  const tag = (text: string) => {
    const r = parseTemplate(new SourceText('t.tpl', text));
    expect(r.diagnostics).toEqual([]);
    return r.nodes[0] as unknown as Record<string, unknown>;
  };
  const strip = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(strip)
      : v && typeof v === 'object'
        ? Object.fromEntries(
            Object.entries(v)
              .filter(([k]) => k !== 'start' && k !== 'end')
              .map(([k, x]) => [k, strip(x)]),
          )
        : v;

  it('a name runs over [a-zA-Z0-9_] and stops at anything else, at the end of input too', () => {
    expect(strip(tag('{$a_B9.c_1.2x|upper}'))).toEqual({
      type: 'Output',
      ignored: '',
      value: {
        type: 'Modified',
        base: {
          type: 'Var',
          name: 'a_B9',
          path: [
            { type: 'Key', key: { type: 'String', value: 'c_1' } },
            { type: 'Key', key: { type: 'String', value: '2x' } },
          ],
        },
        modifiers: [{ type: 'Modifier', name: 'upper', all: false, args: [] }],
      },
    });
    const code = (text: string) => parseTemplate(new SourceText('t.tpl', text)).diagnostics[0]?.code;
    expect(['{$é}', '{$x-}', '{$a.}', '{$a.é}'].map(code)).toEqual(['E_SYNTAX', 'E_SYNTAX', 'E_SYNTAX', 'E_SYNTAX']);
    expect(code('{$ab')).toBe('E_UNCLOSED_TAG');
    expect(strip(tag('{$x é}'))).toEqual({ type: 'Output', ignored: 'é', value: { type: 'Var', name: 'x', path: [] } });
  });

  it('keys and names carry their offsets, the key its dot', () => {
    const out = tag('{$abc.de}') as {
      start: number;
      end: number;
      value: {
        start: number;
        end: number;
        path: { start: number; end: number; key: { start: number; end: number } }[];
      };
    };
    expect([out.start, out.end, out.value.start, out.value.end]).toEqual([0, 9, 1, 8]);
    expect([
      out.value.path[0].start,
      out.value.path[0].end,
      out.value.path[0].key.start,
      out.value.path[0].key.end,
    ]).toEqual([5, 8, 5, 8]);
  });

  it('whitespace of every kind, or none, around and inside tags', () => {
    const spaced = strip(tag('{ \t\r\nassign \t\r\n var=x  \n value = 1 \t}'));
    expect(spaced).toEqual(strip(tag('{assign var=x value=1}')));
    expect(strip(tag('{if $a\n&&\t$b}'))).toEqual(strip(tag('{if $a && $b}')));
    expect(parseTemplate(new SourceText('t.tpl', '{assign var=x value=1  ')).diagnostics[0]).toMatchObject({
      code: 'E_UNCLOSED_TAG',
    });
  });
});
