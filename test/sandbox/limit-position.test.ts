/**
 * Limits enforced from outside the isolate (CPU and wall time, memory) stop it with no stack to
 * read; the position slot the generated code keeps (src/compiler/codegen/builder.ts) still lets
 * the error name the template and line (issue 4, docs/security.md threat model point 2).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/index.js';
import { renderRawJsForHarness } from '../../src/engine-internal.js';
import { templateError as failure } from '../support/engine.js';

const templates: Record<string, string> = {
  'inc.tpl': 'one\ntwo\n{section name=i loop=2000000000}{/section}\n',
};
let slowCalls = 0;
const engine = createEngine({
  workers: 1,
  templates,
  limits: { cpuMs: 200, wallMs: 3000 },
  host: {
    secrets: {
      // Never asked (slowCalls stays 0); were it asked, it would never answer.
      get() {
        slowCalls++;
        return new Promise(() => {});
      },
    },
  },
});
afterAll(() => engine.close());

describe('limit errors name the template line', () => {
  it('an endless loop at line 3 of an included template names that template and line 3', async () => {
    const e = await failure(engine.render('main\n{include file="inc.tpl"}\n', { name: 'main.tpl' }));
    expect(e.code).toBe('E_CPU_TIMEOUT');
    expect([e.template, e.line, e.column]).toEqual(['inc.tpl', 3, 1]);
    expect(e.frame).toContain('> 3 | {section name=i loop=2000000000}');
    expect(e.format()).toMatch(/^inc\.tpl:3:1: error E_CPU_TIMEOUT/);
  });

  it('a catastrophic regex in a modifier at line 4 names line 4', async () => {
    const e = await failure(
      engine.render(
        'a\n{section name=i loop=3}{$i}{/section}\n{assign var=x value=1}\n{$s|regex_replace:"/(a+)+$/":"x"}\n',
        { name: 'rx.tpl', vars: { s: `${'a'.repeat(40)}!` } },
      ),
    );
    expect(e.code).toBe('E_CPU_TIMEOUT');
    expect([e.template, e.line]).toEqual(['rx.tpl', 4]);
  });

  it('nested loops: the inner loop while it runs, the outer one again after it (restored on exit)', async () => {
    const e = await failure(
      engine.render('{section name=a loop=2000000000}\n{section name=b loop=2}{/section}\n{/section}', {
        name: 'nest.tpl',
      }),
    );
    expect(e.code).toBe('E_CPU_TIMEOUT');
    // Where the timeout lands is a matter of timing: inside the short inner loop or between its runs.
    expect(e.template).toBe('nest.tpl');
    expect([1, 2]).toContain(e.line);
    const { code } = engine.compile('{section name=a loop=9}{section name=b loop=2}{/section}{/section}');
    expect(code).toMatch(/const (w\d+) = P\[0\]; P\[0\] = \d+;[\s\S]*P\[0\] = \1;/);
  });

  it('a heap bomb in a loop names the statement that allocates (line 3), read after the isolate was disposed', async () => {
    const bomb =
      '{* bomb *}\n{section name=i loop=100000000}\n{append var=a value=$smarty.section.i.index|str_pad:2000:"x"}\n{/section}';
    const big = createEngine({ workers: 1, limits: { cpuMs: 20_000, wallMs: 30_000 } });
    try {
      const e = await failure(big.render(bomb, { name: 'bomb.tpl' }));
      expect(e.code).toBe('E_MEMORY_LIMIT');
      expect([e.template, e.line]).toEqual(['bomb.tpl', 3]);
      // The tenant renders again (a new isolate).
      expect((await big.render('{$x}', { vars: { x: 'alive' } })).output).toBe('alive');
    } finally {
      await big.close();
    }
  }, 60_000);

  it('the wall deadline during a host call that never answers, at line 2, names line 2', async () => {
    const wall = createEngine({
      workers: 1,
      limits: { cpuMs: 1000, wallMs: 300 },
      host: { secrets: { get: () => new Promise(() => {}) } },
    });
    try {
      const e = await failure(wall.render('x\n  {secret var=s key="K"}\n', { name: 'wall.tpl' }));
      expect(e.code).toBe('E_WALL_TIMEOUT');
      expect([e.template, e.line, e.column]).toEqual(['wall.tpl', 2, 3]);
    } finally {
      await wall.close();
    }
  });

  it('with no position recorded, the error says the line is unknown instead of pointing at line 0', async () => {
    const e = await failure(renderRawJsForHarness(engine, 'for (;;) {}', { name: 'raw.js' }));
    expect(e.code).toBe('E_CPU_TIMEOUT');
    expect(e.line).toBe(0);
    expect(e.message).toMatch(/line unknown/);
  });

  it('the position store is per loop entry, not per iteration, and nothing is stored in text-only loops', () => {
    const { code } = engine.compile('{foreach from=$l item=v}{$v}x{/foreach}');
    const body = code.slice(code.indexOf('for (let'));
    expect(body.slice(0, body.indexOf('\n    }'))).not.toMatch(/P\[0\] = \d/);
    expect(code).toMatch(/const w\d+ = P\[0\]; P\[0\] = \d+;/);
  });

  it('a render after the limit errors is unaffected (the spare isolate is clean)', async () => {
    expect((await engine.render('{$x}', { vars: { x: 'ok' } })).output).toBe('ok');
    expect(slowCalls).toBe(0);
  });
});
