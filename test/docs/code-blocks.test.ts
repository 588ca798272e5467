/**
 * The code blocks of the README and docs/*.md that claim to run, run (test/support/doc-blocks.ts
 * says how a block claims it): an excerpt is its file's text, and a `$ smartcage ...` block is
 * what the built command prints, run in a folder holding the files the document showed before
 * it. A `$ node examples/X.mjs` block is compared by examples/X.mjs's own test
 * (test/examples/X.test.ts), which runs it once for its other checks too.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, requireBuild, runBin } from '../support/bin.js';
import { docBlocks, type DocBlock } from '../support/doc-blocks.js';

beforeAll(requireBuild);

const DOCS = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
const scratch = mkdtempSync(join(tmpdir(), 'smartcage-doc-blocks-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const isCommand = (b: DocBlock) => b.tag.startsWith('$ ');
const isExcerpt = (b: DocBlock) => b.tag.includes('/') && !isCommand(b);
const isFile = (b: DocBlock) => /^[\w.-]+\.\w+$/.test(b.tag);

describe.each(DOCS)('%s', (doc) => {
  const blocks = docBlocks(doc);

  it('claims nothing the tests do not check: a fence says a path, a file name, a $ command or nothing', () => {
    expect(
      blocks
        .filter((b) => b.tag !== '' && !isCommand(b) && !isExcerpt(b) && !isFile(b))
        .map((b) => `${doc}:${b.line} ${b.tag}`),
    ).toEqual([]);
  });

  for (const b of blocks.filter(isExcerpt)) {
    it(`line ${b.line}: is ${b.tag}'s text`, () => {
      expect(readFileSync(join(ROOT, b.tag), 'utf8')).toContain(b.text);
    });
  }

  const files = new Map<string, string>();
  for (const b of blocks) {
    if (isFile(b)) files.set(b.tag, b.text);
    if (!isCommand(b)) continue;
    const command = b.tag.slice(2);
    const shown = new Map(files);
    it(`line ${b.line}: ${command}`, () => {
      const example = /^node (examples\/[\w-]+)\.mjs$/.exec(command);
      if (example) {
        const test = join(ROOT, 'test', `${example[1]}.test.ts`);
        expect(readFileSync(test, 'utf8')).toContain(`outputBlock('${doc}', '${command}')`);
        return;
      }
      const args = /^smartcage (.+)$/.exec(command)?.[1]?.split(' ');
      expect(args, 'a $ block runs `smartcage ...` or `node examples/X.mjs`').toBeDefined();
      const dir = mkdtempSync(join(scratch, 'run-'));
      for (const [name, text] of shown) writeFileSync(join(dir, name), text);
      expect(runBin(args!, { cwd: dir }).stdout).toBe(b.text);
    });
  }
});
