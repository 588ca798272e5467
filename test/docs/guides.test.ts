/**
 * The guides of docs/ (host adapters, tenants, limits, adding plugins, plugins for embedders) and the README point at
 * things that are there: every repository path they name exists, every `npm run` script is in
 * package.json, and the adapter table of docs/host-adapters.md has exactly the fields of
 * HostAdapters. Their code blocks are checked by code-blocks.test.ts, their numbers by
 * limits.test.ts.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/bin.js';

const GUIDES = [
  'docs/host-adapters.md',
  'docs/tenants.md',
  'docs/limits.md',
  'docs/adding-plugins.md',
  'docs/plugins-for-embedders.md',
];
const DOCS = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
const read = (f: string) => readFileSync(join(ROOT, f), 'utf8');

const FOLDERS = '(?:src|test|scripts|examples|docs|bin|grammar|editors|bench)';
/** A path in backticks; in the guides, anywhere. A path with a placeholder (`<family>`) is no path. */
const QUOTED = new RegExp(`\`(${FOLDERS}/[\\w./-]*)\``, 'g');
const BARE = new RegExp(`(?<![\\w./-])(${FOLDERS}/[\\w./-]*)(?![\\w./<-])`, 'g');

describe('the guides and the README', () => {
  it('name repository paths that exist', () => {
    const missing: string[] = [];
    for (const doc of DOCS) {
      const text = read(doc);
      const paths = [...text.matchAll(QUOTED), ...(GUIDES.includes(doc) ? text.matchAll(BARE) : [])].map((m) =>
        m[1]!.replace(/\.+$/, ''),
      );
      for (const p of new Set(paths)) if (!existsSync(join(ROOT, p))) missing.push(`${doc}: ${p}`);
    }
    expect(missing).toEqual([]);
  });

  it('name npm scripts that package.json has', () => {
    const scripts = new Set(
      Object.keys((JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts),
    );
    const missing: string[] = [];
    for (const doc of DOCS)
      for (const m of read(doc).matchAll(/npm run (?:-s |--silent )?([\w:-]+)/g))
        if (!scripts.has(m[1]!)) missing.push(`${doc}: npm run ${m[1]}`);
    expect(missing).toEqual([]);
  });

  it('are linked from the README', () => {
    for (const g of GUIDES) expect(read('README.md')).toContain(`(${g})`);
  });
});

describe('docs/host-adapters.md', () => {
  it('has a row for each field of HostAdapters, and no other', () => {
    const host = read('src/host-api/host.ts');
    const body = host.slice(host.indexOf('export interface HostAdapters {'));
    const fields = [...body.slice(0, body.indexOf('\n}\n')).matchAll(/^ {2}(\w+)\?:/gm)].map((m) => m[1]);
    const rows = [...read('docs/host-adapters.md').matchAll(/^\| `(\w+)` \| .* \| .* \|$/gm)].map((m) => m[1]);
    expect(fields.length).toBeGreaterThan(5);
    expect([...rows].sort()).toEqual([...fields].sort());
  });
});
