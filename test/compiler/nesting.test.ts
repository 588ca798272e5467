/**
 * Deep nesting is a compile error at its line, whatever the shape and whatever the stack
 * (HH-07); a long chain of one logical operator is not deep. Before the bound, a 30 KB chain
 * of `+` overflowed the code generator's stack and a long `.b.b.b` path made V8 refuse the
 * generated script inside the isolate.
 */
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { compile, TemplateError } from '../../src/index.js';
import { MAX_EXPR_DEPTH } from '../../src/compiler/expr-depth.js';
import { testEngine } from '../support/engine.js';

const engine = testEngine();
const rep = (s: string, n: number) => s.repeat(n);
const VARS = { a: { b: 1 }, n: 1, s: 'x', o: {} };

/**
 * Each shape with `n` of its levels, and the most levels it may have: MAX_EXPR_DEPTH, less what
 * its place adds (an attribute value is inside the tag's call, a modifier argument inside the
 * modifier's). A key in backticks is one level: a string that is one variable is the variable.
 */
const SHAPES: Record<string, { max: number; make: (n: number) => string }> = {
  parentheses: { max: MAX_EXPR_DEPTH, make: (n) => `{if ${rep('(', n)}1${rep(')', n)}}x{/if}` },
  '{if} function calls': { max: MAX_EXPR_DEPTH, make: (n) => `{if ${rep('is_null(', n)}1${rep(')', n)}}x{/if}` },
  '! signs': { max: MAX_EXPR_DEPTH, make: (n) => `{if ${rep('!', n)}$n}x{/if}` },
  'keys that are variables': { max: MAX_EXPR_DEPTH, make: (n) => `{$a${rep('[$a', n)}${rep(']', n)}}` },
  'keys in backticks': {
    max: MAX_EXPR_DEPTH - 1,
    make: (n) => `{assign var=x value="\`$a${rep('["`$a', n)}${rep('`"]', n)}\`"}`,
  },
  '+ chain in {assign}': { max: MAX_EXPR_DEPTH - 1, make: (n) => `{assign var=x value=$n${rep('+$n', n)}}` },
  '* chain in {if}': { max: MAX_EXPR_DEPTH, make: (n) => `{if $n${rep(' * $n', n)}}x{/if}` },
  // Comparisons do not chain in PHP (a compile error, D355): a chain of `&` folds the same way.
  '& chain': { max: MAX_EXPR_DEPTH, make: (n) => `{if $n${rep(' & $n', n)}}x{/if}` },
  modifiers: { max: MAX_EXPR_DEPTH, make: (n) => `{$s${rep('|upper', n)}}` },
  'modifiers on a tag': { max: MAX_EXPR_DEPTH - 1, make: (n) => `{counter${rep('|upper', n)} name=c}` },
  'dotted path': { max: MAX_EXPR_DEPTH, make: (n) => `{$a${rep('.b', n)}}` },
  'bracket path': { max: MAX_EXPR_DEPTH, make: (n) => `{$a${rep('[0]', n)}}` },
  'arrow path': { max: MAX_EXPR_DEPTH, make: (n) => `{$o${rep('->p', n)}}` },
  'keys in a modifier argument': {
    max: MAX_EXPR_DEPTH - 1,
    make: (n) => `{$s|default:$a${rep('[$a', n)}${rep(']', n)}}`,
  },
};

const onLine3 = (tag: string) => `line 1\nline 2\n${tag}\nline 4\n`;

function errorOf(source: string) {
  return compile(source, { name: 'deep.tpl' }).diagnostics.find((d) => d.severity === 'error');
}

describe(`expressions nest at most ${MAX_EXPR_DEPTH} levels`, () => {
  for (const [shape, { max, make }] of Object.entries(SHAPES)) {
    it(`${shape}: ${max} levels compile, ${max + 1} and 10,000 are E_NESTING_TOO_DEEP on their line`, () => {
      expect(errorOf(onLine3(make(max))), 'at the bound').toBeUndefined();
      for (const n of [max + 1, 10_000]) {
        expect(errorOf(onLine3(make(n))), `${n} levels`).toMatchObject({
          code: 'E_NESTING_TOO_DEEP',
          name: 'deep.tpl',
          line: 3,
        });
      }
    });
  }

  it('the deepest expressions allowed run in the isolate inside the deepest blocks allowed', async () => {
    // 198 blocks around the tag (and its own {if}: structure.ts allows 200 levels with the root).
    const around = (tag: string) => `${rep('{foreach from=$a item=i}', 198)}${tag}${rep('{/foreach}', 198)}`;
    for (const [shape, { max, make }] of Object.entries(SHAPES)) {
      // Loaded and run: a runtime error of the values (an array where a number goes) is fine here.
      const outcome = await engine.render(around(make(max)), { name: 'deep.tpl', vars: VARS }).then(
        () => 'ran',
        (e: unknown) =>
          e instanceof TemplateError &&
          e.line > 0 &&
          !['E_NESTING_TOO_DEEP', 'E_SANDBOX_CRASHED', 'E_RECURSION_LIMIT'].includes(e.code)
            ? 'ran'
            : e,
      );
      expect(outcome, shape).toBe('ran');
    }
  });

  it('engine.render throws the TemplateError with the line for 10,000 levels of every shape', async () => {
    for (const [shape, { make }] of Object.entries(SHAPES)) {
      const err = await engine.render(onLine3(make(10_000)), { name: 'deep.tpl', vars: VARS }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err, shape).toBeInstanceOf(TemplateError);
      expect(err, shape).toMatchObject({ code: 'E_NESTING_TOO_DEEP', template: 'deep.tpl', line: 3 });
    }
  });

  it('nested blocks 10,000 deep are refused at the block that goes past the bound', async () => {
    for (const tag of [
      '{if $n}',
      '{foreach from=$a item=i}',
      '{section name=s loop=1}',
      '{capture name=c}',
      '{strip}',
    ]) {
      const name = tag.slice(1).split(/[ }]/)[0];
      const err = await engine
        .render(`x\n${rep(`${tag}\n`, 10_000)}${rep(`{/${name}}`, 10_000)}`, { name: 'deep.tpl', vars: VARS })
        .then(
          () => null,
          (e: unknown) => e,
        );
      expect(err, tag).toMatchObject({ code: 'E_NESTING_TOO_DEEP', line: 202 });
    }
  });
});

describe('a chain of one logical operator is flat, however long', () => {
  it('10,000 terms of ||, of && and of both compile and give the right answer', async () => {
    const or = `{if $f${rep(' || $f', 9_998)} || $t}yes{else}no{/if}`;
    const and = `{if $t${rep(' && $t', 9_998)} && $f}yes{else}no{/if}`;
    const mixed = `{if $f${rep(' && $t || $f', 5_000)} || $t and $t}yes{else}no{/if}`;
    const vars = { t: true, f: false };
    expect((await engine.render(or, { vars })).output).toBe('yes');
    expect((await engine.render(and, { vars })).output).toBe('no');
    expect((await engine.render(mixed, { vars })).output).toBe('yes');
  });

  it('is emitted as one chain, and keeps the left-to-right order of evaluation', () => {
    const { code } = compile('{if $a && $b && $c}x{/if}');
    expect(code).toContain('(truthy(s["a"]) && truthy(s["b"]) && truthy(s["c"]))');
  });
});

describe('a stack smaller than the bound assumes', () => {
  it('still gives E_NESTING_TOO_DEEP at the line, not a RangeError', () => {
    const root = fileURLToPath(new URL('../..', import.meta.url));
    const source = onLine3(SHAPES.parentheses.make(MAX_EXPR_DEPTH));
    const script = `import(${JSON.stringify(`${root}src/compiler/index.ts`)}).then((m) => { const d = m.compile(${JSON.stringify(source)}, { name: 'deep.tpl' }).diagnostics; process.stdout.write(JSON.stringify(d.map((x) => [x.code, x.line]))); })`;
    // --stack-size=120: an eighth of Node's default, where 200 levels of parentheses do not fit.
    const r = spawnSync(process.execPath, ['--stack-size=120', '--import', 'tsx', '-e', script], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual([['E_NESTING_TOO_DEEP', 3]]);
  });
});
