/**
 * The imports between the files of src/, read with TypeScript's own parser: value imports only
 * (type-only imports vanish when compiled; the layer rule, ./layers.mjs, reads these), or type
 * imports too (what the type checker must read together: a cycle there is a contract that lives
 * in an implementation). ./cycles.mjs prints the cycles of either.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

function listTs(dir) {
  const out = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...listTs(p));
    else if (/\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

/** True when the declaration brings in no value: `import type`, or every named binding `type`. */
function typeOnly(node) {
  if (ts.isImportDeclaration(node)) {
    const c = node.importClause;
    if (!c) return false; // a side-effect import runs the module
    if (c.isTypeOnly) return true;
    if (c.name) return false;
    const b = c.namedBindings;
    return !!b && ts.isNamedImports(b) && b.elements.length > 0 && b.elements.every((e) => e.isTypeOnly);
  }
  if (node.isTypeOnly) return true;
  const b = node.exportClause;
  return !!b && ts.isNamedExports(b) && b.elements.length > 0 && b.elements.every((e) => e.isTypeOnly);
}

function resolve(from, spec) {
  const base = path.resolve(path.dirname(from), spec);
  for (const c of [base.replace(/\.js$/, '.ts'), base + '.ts', path.join(base, 'index.ts'), base])
    if (fs.existsSync(c) && fs.statSync(c).isFile()) return c;
  return null;
}

/** Map of file (relative to root) to the files it imports for their values. */
export function valueImports(root, dir = 'src') {
  return importGraph(root, dir, false);
}

/** Map of file (relative to root) to the files it imports, for their values or their types. */
export function allImports(root, dir = 'src') {
  return importGraph(root, dir, true);
}

function importGraph(root, dir, withTypes) {
  const graph = new Map();
  for (const file of listTs(path.join(root, dir))) {
    const text = fs.readFileSync(file, 'utf8');
    const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
    const deps = new Set();
    const add = (spec) => {
      const target = spec.startsWith('.') ? resolve(file, spec) : null;
      if (target) deps.add(path.relative(root, target));
    };
    const visit = (node) => {
      if (
        (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
        node.moduleSpecifier &&
        ts.isStringLiteral(node.moduleSpecifier)
      ) {
        if (withTypes || !typeOnly(node)) add(node.moduleSpecifier.text);
      } else if (
        ts.isCallExpression(node) &&
        node.expression.kind === ts.SyntaxKind.ImportKeyword &&
        node.arguments[0] &&
        ts.isStringLiteral(node.arguments[0])
      ) {
        add(node.arguments[0].text);
      } else if (
        withTypes &&
        ts.isImportTypeNode(node) &&
        ts.isLiteralTypeNode(node.argument) &&
        ts.isStringLiteral(node.argument.literal)
      ) {
        // `import('./x.js').T` in a type position
        add(node.argument.literal.text);
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
    graph.set(path.relative(root, file), [...deps].sort());
  }
  return graph;
}

/** The strongly connected components with more than one member (Tarjan), each sorted. */
export function cycles(graph) {
  let index = 0;
  const idx = new Map(),
    low = new Map(),
    on = new Set(),
    stack = [],
    out = [];
  const strong = (v) => {
    idx.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        strong(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) === idx.get(v)) {
      const comp = [];
      let w;
      do {
        w = stack.pop();
        on.delete(w);
        comp.push(w);
      } while (w !== v);
      if (comp.length > 1 || (graph.get(v) ?? []).includes(v)) out.push(comp.sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) strong(v);
  return out;
}
