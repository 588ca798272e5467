/**
 * `import 'smartcage'` is the engine alone: from src/index.ts the value imports reach no file of
 * src/forms, src/forms-ui or src/security (the harness with its fake hosts, ajv, DOM code), and
 * the files they reach import no package but node's own and the package's `dependencies`, so an
 * install without the optional peers ajv and ajv-formats runs the engine.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { valueImports } from '../../scripts/lint/imports.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const graph = valueImports(ROOT);

function reachedFrom(entry: string): string[] {
  const seen = new Set([entry]);
  const queue = [entry];
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    for (const dep of graph.get(file) ?? []) {
      if (!seen.has(dep)) {
        seen.add(dep);
        queue.push(dep);
      }
    }
  }
  return [...seen].sort();
}

/** The packages a file names in its imports (type-only ones too: they reach the .d.ts). */
function packagesOf(file: string): string[] {
  const sf = ts.createSourceFile(file, readFileSync(join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest, false);
  const out: string[] = [];
  const visit = (node: ts.Node): void => {
    let spec: ts.Expression | undefined;
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier)
      spec = node.moduleSpecifier;
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword)
      spec = node.arguments[0];
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) spec = node.argument.literal;
    if (spec && ts.isStringLiteral(spec) && !spec.text.startsWith('.')) out.push(spec.text);
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

/** Packages a file loads when it is loaded: value imports and re-exports, not `import type` nor `import()`. */
function eagerPackagesOf(file: string): string[] {
  const sf = ts.createSourceFile(file, readFileSync(join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest, false);
  return sf.statements
    .filter(
      (n): n is ts.ImportDeclaration | ts.ExportDeclaration =>
        (ts.isImportDeclaration(n) && !n.importClause?.isTypeOnly) || (ts.isExportDeclaration(n) && !n.isTypeOnly),
    )
    .map((n) => n.moduleSpecifier)
    .filter(
      (spec): spec is ts.StringLiteral => spec !== undefined && ts.isStringLiteral(spec) && !spec.text.startsWith('.'),
    )
    .map((spec) => spec.text);
}

const reached = reachedFrom('src/index.ts');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
};
/** Optional peers the engine may load on first use (playwright-core for {generate_pdf}, the AWS SDK for S3Files), never when it is imported. */
const LAZY_PEERS = ['playwright-core', '@aws-sdk/client-s3', '@aws-sdk/s3-request-presigner'];

describe('what src/index.ts loads', () => {
  it('reaches the engine', () => {
    expect(reached).toContain('src/engine.ts');
    expect(reached).toContain('src/sandbox/pool.ts');
  });

  it('reaches no file of src/forms, src/forms-ui or src/security', () => {
    expect(reached.filter((f) => /^src\/(forms|forms-ui|security)\//.test(f))).toEqual([]);
  });

  it("imports no package but node's own and the dependencies (no ajv)", () => {
    const allowed = (spec: string) =>
      spec.startsWith('node:') ||
      [...Object.keys(pkg.dependencies), ...LAZY_PEERS].some((d) => spec === d || spec.startsWith(`${d}/`));
    const found = reached.flatMap((f) => packagesOf(f).map((spec) => `${f}: ${spec}`));
    expect(found.length).toBeGreaterThan(0);
    expect(found.filter((line) => !allowed(line.slice(line.indexOf(': ') + 2)))).toEqual([]);
    expect(found.filter((line) => /: ajv/.test(line))).toEqual([]);
  });

  it('loads the optional peers it names only on first use (import type, import())', () => {
    expect(LAZY_PEERS.every((p) => pkg.peerDependenciesMeta[p]?.optional === true)).toBe(true);
    expect(
      reached.flatMap((f) =>
        eagerPackagesOf(f)
          .filter((p) => LAZY_PEERS.includes(p))
          .map((p) => `${f}: ${p}`),
      ),
    ).toEqual([]);
  });
});
