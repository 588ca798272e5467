import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// src/forms-ui is browser code: it may import only itself and src/forms, and uses no Node API.
const dir = new URL('../../src/forms-ui/', import.meta.url);
const files = readdirSync(dir).filter((f) => f.endsWith('.ts'));

describe('src/forms-ui is browser code', () => {
  it('has sources', () => expect(files.length).toBeGreaterThanOrEqual(5));
  it.each(files)('%s uses no Node API', (f) => {
    const src = readFileSync(new URL(f, dir), 'utf8');
    const imports = [...src.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)].map((m) => m[1]!);
    for (const spec of imports) expect(spec, spec).toMatch(/^(\.\/[\w-]+\.js|\.\.\/forms\/index\.js|ajv\/dist\/runtime\/[\w-]+\.js)$/);
    expect(src).not.toMatch(/\b(process|Buffer|require|__dirname|__filename|global)\b\s*[.(]/);
  });
});
