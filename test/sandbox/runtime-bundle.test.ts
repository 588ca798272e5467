/**
 * The runtime script every isolate holds a copy of (src/sandbox/runtime-bundle.ts, built by
 * scripts/build-runtime.mjs): its size is memory of every warm tenant (docs/decisions.md D215), so
 * it carries none of the plugins' documentation, and its minification keeps the names the runtime
 * reads.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ALL_PLUGINS } from '../../src/plugins/registry.js';
import { templateError, testEngine } from '../support/engine.js';

const engine = testEngine();
const bundle = readFileSync(new URL('../../dist/runtime.bundle.js', import.meta.url), 'utf8');

/** Texts an ASCII-escaping minifier writes out as they are: printable ASCII, no quote or backslash. */
const verbatim = (s: string) => s.length >= 40 && /^[ !#-&(-[\]-~]+$/.test(s);

describe('the runtime bundle', () => {
  it('carries no plugin example or attribute doc, and next to no summary', () => {
    const summaries = ALL_PLUGINS.map((p) => p.summary).filter(verbatim);
    const docs = ALL_PLUGINS.flatMap((p) =>
      'attrs' in p ? Object.values(p.attrs).map((a) => a.doc ?? '') : [],
    ).filter(verbatim);
    const examples = ALL_PLUGINS.flatMap((p) => p.examples.flatMap((e) => [e.template, e.output])).filter(verbatim);
    // Enough of each kind for the check to mean something.
    expect(summaries.length).toBeGreaterThan(100);
    expect(docs.length).toBeGreaterThan(20);
    expect(examples.length).toBeGreaterThan(20);
    const kept = (texts: string[]) => texts.filter((t) => bundle.includes(t));
    expect(kept(examples)).toEqual([]);
    expect(kept(docs)).toEqual([]);
    // A summary handed to a plugin factory as an argument (array/by-reference.ts) stays: a few.
    expect(kept(summaries).join('').length).toBeLessThan(1024);
  });

  it('is minified: a few lines, not tens of thousands', () => {
    expect(bundle.split('\n').length).toBeLessThan(100);
  });

  it("keeps the class names the runtime maps to error codes (isolate-entry.ts's codeOf)", async () => {
    // PhpDivisionByZero and PhpTypeError are found by constructor name, which renamed identifiers would lose.
    const render = (source: string, vars: Record<string, unknown>) => templateError(engine.render(source, { vars }));
    expect((await render('{$a/$b}', { a: 1, b: 0 })).code).toBe('E_DIVISION_BY_ZERO');
    expect((await render('{$a+1}', { a: 'abc' })).code).toBe('E_TYPE');
  });
});
