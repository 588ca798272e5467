/**
 * Every site.json the repository shows validates against schema/site.schema.json, read by our
 * checker (as a site opens it) and by ajv (as an editor does): each file named site.json, and
 * each ```json block of the README and docs/*.md that is a site.json or a part of one (a block
 * that starts with a top-level key of site.json, completed with the three required keys). What
 * `site init` writes is checked by test/site/init.test.ts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSiteConfig } from '../../src/site/config.js';
import { SITE_SCHEMA } from '../../src/site/site-json.generated.js';
import { ROOT } from '../support/bin.js';
import { docBlocks } from '../support/doc-blocks.js';
import { ajvSiteJsonErrors } from '../support/site-schema.js';

const SKIP = new Set(['node_modules', 'dist', '.git', 'test-artifacts']);

function siteJsonFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (SKIP.has(e.name)) return [];
    const p = join(dir, e.name);
    return e.isDirectory() ? siteJsonFiles(p) : e.name === 'site.json' ? [relative(ROOT, p)] : [];
  });
}

const KEYS = Object.keys(SITE_SCHEMA.properties ?? {});
const REQUIRED = { site_key: 'demo', timezone: 'Asia/Tokyo', lang: 'ja' };

/** The site.json a block shows, or null when it shows none. */
function shownSiteJson(text: string): unknown {
  const t = text.trim();
  const first = /^"([\w$]+)"\s*:/.exec(t)?.[1];
  if (first !== undefined && KEYS.includes(first))
    return { ...REQUIRED, ...(JSON.parse(`{${t}}`) as Record<string, unknown>) };
  if (t.startsWith('{') && /"site_key"\s*:/.test(t)) return JSON.parse(t) as unknown;
  return null;
}

const DOCS = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
const shown = DOCS.flatMap((doc) =>
  docBlocks(doc)
    .filter((b) => b.lang === 'json')
    .flatMap((b) => {
      const json = shownSiteJson(b.text);
      return json === null ? [] : [{ where: `${doc}:${b.line}`, json }];
    }),
);
const files = siteJsonFiles(ROOT).map((f) => ({
  where: f,
  json: JSON.parse(readFileSync(join(ROOT, f), 'utf8')) as unknown,
}));

describe('every site.json the repository shows', () => {
  it('is found: the docs show parts of one', () => {
    expect(shown.length).toBeGreaterThanOrEqual(5);
  });

  it.each([...shown, ...files])('$where validates against the schema', ({ where, json }) => {
    expect(() => parseSiteConfig(json, where)).not.toThrow();
    expect(ajvSiteJsonErrors(json)).toEqual([]);
  });
});
