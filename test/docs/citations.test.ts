/**
 * What code and docs cite in docs/ is there: every "decisions.md D<n>" names a decision, every
 * catalogue id (CG-01, FS-12...) and goal (G7) a row of docs/security.md, whose rows are exactly
 * the harness's catalogue; and nothing outside docs/ points at the shared research notes.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CATALOGUE, CATALOGUE_IDS } from '../../src/security/cases/index.js';

const DECISIONS = 'docs/decisions.md';
const SECURITY = 'docs/security.md';

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.(ts|mjs|md|php|txt)$/.test(e.name) && !e.parentPath.includes('node_modules'))
    .map((e) => join(e.parentPath, e.name));
}

const TEXTS = [...['src', 'test', 'bench', 'scripts', 'docs', 'grammar'].flatMap(files), 'README.md'];
const read = (f: string) => readFileSync(f, 'utf8');

describe('docs/decisions.md', () => {
  const numbers = [...read(DECISIONS).matchAll(/^- D(\d+)\. /gm)].map((m) => Number(m[1]));

  it('numbers its decisions D1, D2... in order, each once', () => {
    expect(numbers.length).toBeGreaterThan(40);
    expect(numbers).toEqual(numbers.map((_, i) => i + 1));
  });

  it('has every decision that is cited', () => {
    const known = new Set(numbers);
    const missing: string[] = [];
    for (const f of TEXTS) {
      for (const m of read(f).matchAll(/decisions\.md`?,? (D\d+(?:[-–]D\d+)?(?:, D\d+)*)/g)) {
        for (const d of m[1].matchAll(/D(\d+)/g)) if (!known.has(Number(d[1]))) missing.push(`${f}: D${d[1]}`);
      }
    }
    expect(missing).toEqual([]);
  });
});

describe('docs/security.md', () => {
  const text = read(SECURITY);
  const rows = [...text.matchAll(/^\| ([A-Z]+-(?:\d{2}|[A-Z]+)) \|/gm)].map((m) => m[1]);
  const goals = new Set([...text.matchAll(/^\| (G\d+) \|/gm)].map((m) => m[1]));

  it('has one row per catalogue id and per automated case', () => {
    const expected = new Set([...CATALOGUE_IDS, ...CATALOGUE.map((c) => c.id)]);
    expect(rows.length).toBe(new Set(rows).size);
    expect(new Set(rows)).toEqual(expected);
  });

  it('has every catalogue id and goal that is cited', () => {
    const ids = new Set(rows);
    const missing: string[] = [];
    for (const f of TEXTS) {
      const t = read(f);
      for (const m of t.matchAll(/\b(?:CG|IS|CPU|MEM|BR|NET|FS|RX|ML|OPS|HH)-\d{2}\b/g))
        if (!ids.has(m[0])) missing.push(`${f}: ${m[0]}`);
      for (const m of t.matchAll(/\bgoals? (G\d+)/gi)) if (!goals.has(m[1])) missing.push(`${f}: ${m[1]}`);
    }
    expect([...new Set(missing)]).toEqual([]);
  });
});

describe('citations of the shared research notes', () => {
  it('stay in docs/: code, tests and the README cite the project docs', () => {
    const outside = TEXTS.filter(
      (f) => !f.startsWith('docs/') && f !== join('test', 'docs', 'citations.test.ts'),
    ).filter((f) => /shared\/docs|decisions\.md item/.test(read(f)));
    expect(outside).toEqual([]);
  });
});
