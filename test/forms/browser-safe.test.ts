import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// src/forms runs in the browser too: no Node APIs, no Node globals.
const dir = new URL('../../src/forms/', import.meta.url);
const files = readdirSync(dir, { recursive: true })
  .map(String)
  .filter((f) => f.endsWith('.ts'));

describe('src/forms is browser-safe', () => {
  it('has sources', () => expect(files.length).toBeGreaterThan(10));
  it.each(files)('%s uses no Node API', (f) => {
    const src = readFileSync(new URL(f, dir), 'utf8');
    const imports = [...src.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)].map((m) => m[1]!);
    for (const spec of imports)
      expect(spec, spec).toMatch(/^(\.{1,2}\/|ajv$|ajv-formats$|ajv\/dist\/standalone\/index\.js$)/);
    expect(src).not.toMatch(/\b(process|Buffer|require|__dirname|__filename|global)\b\s*[.(]/);
  });
});
