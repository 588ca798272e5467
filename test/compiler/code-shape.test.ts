/**
 * The shape of the generated script that V8's compile strategy depends on: the factory and every
 * template function are function expressions in parentheses, which V8 compiles with the script.
 * Written as `(rt) => {` and `function t0(`, each was parsed again when it first ran (~100 µs of a
 * new page's first output: bench/README.md).
 */
import { describe, expect, it } from 'vitest';
import { Script } from 'node:vm';
import { compile } from '../../src/index.js';

const templates: Record<string, string> = { 'inc.tpl': 'inc {$x}', 'nested.tpl': '[{include file="inc.tpl"}]' };

describe('generated script shape', () => {
  it('the factory and each template function (entry and included) are parenthesized function expressions', () => {
    const { code, manifest } = compile('{include file="nested.tpl"}{include file="inc.tpl"}', {
      name: 'main',
      templates: (n) => templates[n],
    });
    expect(manifest.templates).toEqual(['main', 'nested.tpl', 'inc.tpl']);
    expect(code).toMatch(/^smartcage\.define\("main", \(function \(rt\) \{$/m);
    const fns = code.match(/^ {2}const t\d+ = \(function t\d+\(s, \$\) \{/gm) ?? [];
    expect(fns.map((l) => l.trim().split(' ')[1])).toEqual(['t0', 't1', 't2']);
    expect(code).not.toMatch(/^\s*function t\d+\(/m);
    expect(code.endsWith('  return t0;\n}));\n')).toBe(true);
    expect(() => new Script(code)).not.toThrow();
  });
});
