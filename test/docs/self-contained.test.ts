/**
 * The documentation stands on its own: nothing points outside the repository, the README's
 * guide table names every guide, the site guide cites no internal tracker and documents only
 * what the package exports, and the licence package.json names is there.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/bin.js';

const read = (f: string) => readFileSync(join(ROOT, f), 'utf8');
const DOCS = readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md'));

describe('the docs are self-contained', () => {
  it('no document cites a file outside the repository (../shared/...)', () => {
    for (const f of ['README.md', ...DOCS.map((d) => `docs/${d}`)]) expect(read(f), f).not.toMatch(/\.\.\/shared\//);
  });

  it("the README's docs/ row names every document of docs/", () => {
    const row = read('README.md')
      .split('\n')
      .find((l) => l.startsWith('| `docs/` |'))!;
    expect(DOCS.filter((d) => !row.includes(`\`${d}\``))).toEqual([]);
  });

  it('docs/site.md cites no issue numbers and no openSite, which the package does not export', () => {
    const site = read('docs/site.md');
    expect(site).not.toMatch(/\bissue \d+/i);
    expect(site).not.toMatch(/\bopenSite\b/);
    expect(read('src/index.ts')).not.toMatch(/\bopenSite\b/);
  });

  it('has the LICENSE package.json names, with its copyright holder', () => {
    expect((JSON.parse(read('package.json')) as { license: string }).license).toBe('MIT');
    expect(existsSync(join(ROOT, 'LICENSE'))).toBe(true);
    expect(read('LICENSE')).toMatch(/^MIT License\n\nCopyright \(c\) \d{4} smartcage contributors\n/);
  });
});
