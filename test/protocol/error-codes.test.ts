/**
 * The ErrorCode list (src/protocol/error-codes.ts) is exact: every E_ code written in src/, the
 * grammar and the docs is on it, each entry says what it means, and each is produced somewhere.
 * The list is read from its source text, as TypeScript parses it, so the test checks what the
 * type is made of.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../src/protocol/error-codes.js';

const LIST = 'src/protocol/error-codes.ts';
const GRAMMAR = 'grammar/template.peggy';
/** Names that look like codes and are not: PHP's own constants. */
const NOT_CODES = new Set(['E_ALL']);
const CODE = /^E_[A-Z0-9_]+$/;

function files(dir: string, ext: RegExp): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && ext.test(e.name))
    .map((e) => join(e.parentPath, e.name));
}

/** The properties of ERROR_CODE_MEANINGS in source order, each with the meaning it gives. */
function readList(): { code: string; comment: string }[] {
  const text = readFileSync(LIST, 'utf8');
  const sf = ts.createSourceFile(LIST, text, ts.ScriptTarget.Latest, true);
  let list: ts.ObjectLiteralExpression | undefined;
  const visit = (node: ts.Node): void => {
    if (ts.isVariableDeclaration(node) && node.name.getText(sf) === 'ERROR_CODE_MEANINGS' && node.initializer) {
      const init = ts.isAsExpression(node.initializer) ? node.initializer.expression : node.initializer;
      if (ts.isObjectLiteralExpression(init)) list = init;
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  if (!list) throw new Error(`no ERROR_CODE_MEANINGS object in ${LIST}`);
  return list.properties.map((p) => {
    if (!ts.isPropertyAssignment(p) || !ts.isStringLiteral(p.initializer))
      throw new Error(`${LIST}: ${p.getText(sf)} is not a code with a string meaning`);
    return { code: p.name.getText(sf), comment: p.initializer.text };
  });
}

/** Every string literal of src/ (the list itself and the generated parser left out) that reads as a code, by file. */
function literalsInSrc(): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const file of files('src', /\.(ts|mjs)$/)) {
    if (file === LIST || file.endsWith('.d.ts')) continue;
    const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
    const found = new Set<string>();
    const visit = (node: ts.Node): void => {
      if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && CODE.test(node.text))
        found.add(node.text);
      ts.forEachChild(node, visit);
    };
    visit(sf);
    if (found.size) out.set(file, found);
  }
  return out;
}

/** The codes the grammar raises: error("[E_CODE] message"). */
function grammarCodes(): Set<string> {
  return new Set([...readFileSync(GRAMMAR, 'utf8').matchAll(/\berror\(\s*[`'"]\[(E_[A-Z0-9_]+)\]/g)].map((m) => m[1]));
}

describe('ErrorCode', () => {
  const list = readList();
  const codes = new Set(list.map((e) => e.code));

  it('is the list the module exports, each code once, each with a one-line meaning', () => {
    expect(list.map((e) => e.code)).toEqual([...ERROR_CODES]);
    expect(codes.size).toBe(list.length);
    expect(list.filter((e) => e.comment.length < 10).map((e) => e.code)).toEqual([]);
  });

  it('holds every E_ literal in src/ and every code the grammar raises', () => {
    const missing: string[] = [];
    for (const [file, found] of literalsInSrc())
      for (const c of found) if (!codes.has(c)) missing.push(`${file}: ${c}`);
    for (const c of grammarCodes()) if (!codes.has(c)) missing.push(`${GRAMMAR}: ${c}`);
    expect(missing).toEqual([]);
  });

  it('holds every E_ name that comments and docs mention', () => {
    const texts = [
      ...files('src', /\.(ts|mjs|md)$/).filter((f) => f !== LIST),
      ...files('docs', /\.md$/),
      'README.md',
      GRAMMAR,
    ];
    const unknown: string[] = [];
    for (const file of texts) {
      for (const m of readFileSync(file, 'utf8').matchAll(/\bE_[A-Z0-9_]*[A-Z0-9]\b/g)) {
        if (!codes.has(m[0]) && !NOT_CODES.has(m[0]) && !(file === GRAMMAR && m[0] === 'E_CODE'))
          unknown.push(`${file}: ${m[0]}`);
      }
    }
    expect([...new Set(unknown)]).toEqual([]);
  });

  it('has no dead codes: each is written as a literal outside the security catalogue, or raised by the grammar', () => {
    // The catalogue (src/security/cases) lists the codes an attack must end with: naming a code
    // there does not produce it.
    const produced = grammarCodes();
    for (const [file, found] of literalsInSrc())
      if (!file.startsWith(join('src', 'security', 'cases'))) for (const c of found) produced.add(c);
    expect([...codes].filter((c) => !produced.has(c))).toEqual([]);
  });
});
