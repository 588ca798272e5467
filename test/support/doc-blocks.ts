/**
 * The fenced code blocks of the README and docs/*.md, read the way test/docs/code-blocks.test.ts
 * and the tests of examples/ check them. What follows the language on a fence line says what
 * the block claims:
 *
 *   ```js examples/host.mjs        an excerpt of that file, character for character
 *   ```smarty page.tpl             a file the document's later commands read (bare name, no folder)
 *   ```text $ smartcage check x    what the command prints on standard output
 *
 * A block with nothing after its language claims nothing that a test could run.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './bin.js';

export interface DocBlock {
  /** The document, relative to the repository. */
  doc: string;
  /** Line of the opening fence, 1-based. */
  line: number;
  lang: string;
  /** What follows the language: a repository path, a file name, or `$ command`. */
  tag: string;
  /** The lines between the fences, each ending with a line break. */
  text: string;
}

const FENCE = /^( *)```(.*)$/;

export function docBlocks(doc: string): DocBlock[] {
  const lines = readFileSync(join(ROOT, doc), 'utf8').split('\n');
  const out: DocBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]!);
    if (!open) continue;
    const indent = open[1]!.length;
    const [lang = '', ...rest] = open[2]!.trim().split(/\s+/);
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length && !/^ *```\s*$/.test(lines[j]!); j++)
      body.push(lines[j]!.slice(Math.min(indent, lines[j]!.search(/\S|$/))));
    if (j === lines.length) throw new Error(`${doc}:${i + 1}: a code block that is never closed`);
    out.push({ doc, line: i + 1, lang, tag: rest.join(' '), text: body.map((l) => `${l}\n`).join('') });
    i = j;
  }
  return out;
}

/** The one block of `doc` that shows the output of `command` (its fence says `$ command`). */
export function outputBlock(doc: string, command: string): DocBlock {
  const found = docBlocks(doc).filter((b) => b.tag === `$ ${command}`);
  if (found.length !== 1) throw new Error(`${doc}: expected one block "$ ${command}", found ${found.length}`);
  return found[0]!;
}
