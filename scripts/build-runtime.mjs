#!/usr/bin/env node
// Bundles src/runtime/isolate-entry.ts (the runtime and every pure plugin) into one script
// that the sandbox evaluates in each isolate: dist/runtime.bundle.js.
//
// Every isolate holds its own copy of this script's text (isolated-vm copies the source at each
// compile, and V8 keeps it for the functions it compiles lazily), so its size is memory of every
// warm tenant (bench/README.md, "Memory per tenant"). Two things keep it small:
// - the plugins' examples, summaries and attribute docs, a quarter of the text, are documentation
//   the isolate never reads (bootstrap drops the examples it would otherwise keep): `withoutDocs`
//   empties them;
// - whitespace and syntax are minified; identifiers are not, so that function and class names
//   stay what the code reads (`e.constructor.name` in isolate-entry.ts) and what stacks show.
import { build } from 'esbuild';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import ts from 'typescript';

const entry = 'src/runtime/isolate-entry.ts';
if (!existsSync(entry)) {
  console.log(`build-runtime: ${entry} not there yet, skipped`);
  process.exit(0);
}

/** Whether `node` is an example (src/plugins/types.ts `Example`): an object with `template` and `output`. */
function isExample(node) {
  if (!ts.isObjectLiteralExpression(node)) return false;
  const keys = new Set(node.properties.map((p) => (p.name && ts.isIdentifier(p.name) ? p.name.text : '')));
  return keys.has('template') && keys.has('output');
}

/** Whether `node` is text written out: string literals, joined with `+` or not. */
function isText(node) {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return true;
  if (ts.isParenthesizedExpression(node)) return isText(node.expression);
  return (
    ts.isBinaryExpression(node) &&
    node.operatorToken.kind === ts.SyntaxKind.PlusToken &&
    isText(node.left) &&
    isText(node.right)
  );
}

/** The documentation properties: a plugin's `summary`, an attribute's `doc` (src/plugins/types.ts). */
const DOC_PROPERTIES = new Set(['summary', 'doc']);

/**
 * A plugin source with its documentation emptied: every array of examples becomes `[]`, every
 * `summary` and `doc` written as text becomes `''`. Positions of code are not kept (the bundle is
 * minified).
 */
function withoutDocs(path, text) {
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const cuts = [];
  const visit = (node) => {
    if (ts.isArrayLiteralExpression(node) && node.elements.length > 0 && node.elements.every(isExample)) {
      cuts.push([node.getStart(file), node.end, '[]']);
      return;
    }
    if (
      ts.isPropertyAssignment(node) &&
      ts.isIdentifier(node.name) &&
      DOC_PROPERTIES.has(node.name.text) &&
      isText(node.initializer)
    ) {
      cuts.push([node.initializer.getStart(file), node.initializer.end, "''"]);
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  let out = text;
  for (const [from, to, by] of cuts.sort((a, b) => b[0] - a[0])) out = out.slice(0, from) + by + out.slice(to);
  return out;
}

const stripDocs = {
  name: 'strip-plugin-docs',
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/]plugins[\\/].*\.ts$/ }, ({ path }) => ({
      contents: withoutDocs(path, readFileSync(path, 'utf8')),
      loader: 'ts',
    }));
  },
};

mkdirSync('dist', { recursive: true });
await build({
  entryPoints: [entry],
  bundle: true,
  format: 'iife',
  platform: 'neutral',
  target: 'es2022',
  outfile: 'dist/runtime.bundle.js',
  legalComments: 'none',
  minifyWhitespace: true,
  minifySyntax: true,
  plugins: [stripDocs],
  logLevel: 'warning',
});
