import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// src/forms-ui is browser code: it may import only itself and src/forms (its index), and uses no
// Node API. Its server/ folder is the Node side (the app of `smartcage serve`), never bundled.
const dir = fileURLToPath(new URL('../../src/forms-ui/', import.meta.url));
const files = (readdirSync(dir, { recursive: true }) as string[])
  .filter((f) => f.endsWith('.ts') && !f.startsWith('server/'))
  .sort();

describe('src/forms-ui is browser code', () => {
  it('has sources', () => expect(files.length).toBeGreaterThanOrEqual(5));
  it.each(files)('%s uses no Node API', (f) => {
    const src = readFileSync(join(dir, f), 'utf8');
    const imports = [...src.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)].map((m) => m[1]!);
    for (const spec of imports) {
      if (!spec.startsWith('.')) {
        expect(spec, spec).toMatch(/^ajv\/dist\/runtime\/[\w-]+\.js$/);
        continue;
      }
      expect(spec, spec).toMatch(/^(\.\.?\/)+[\w/-]+\.js$/);
      const target = relative(dir, resolve(dirname(join(dir, f)), spec));
      expect(
        target === '../forms/index.js' || (!target.startsWith('..') && !target.startsWith('server/')),
        `${spec} (${target})`,
      ).toBe(true);
    }
    expect(src).not.toMatch(/\b(process|Buffer|require|__dirname|__filename|global)\b\s*[.(]/);
  });
  it('the bundle starts at index.ts, so server/ (imported by no browser file) stays out of it', () => {
    const build = readFileSync(new URL('../../scripts/build-forms-ui.mjs', import.meta.url), 'utf8');
    expect(build).toContain('entryPoints: [`${root}src/forms-ui/index.ts`]');
  });
});
