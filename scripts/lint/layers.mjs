#!/usr/bin/env node
/**
 * The layer rule of src/ (docs/architecture.md), in one table that both checks read: the ESLint
 * rule `smartcage/layers` (eslint.config.js: each import as it is written) and this script, run by
 * `npm run lint` and by test/architecture/layers.test.ts (no value-import cycle between files,
 * and every import between units allowed by the table, the table itself acyclic).
 *
 * A unit is a top-level folder of src/, or a file directly in src/. Only value imports count:
 * `import type` disappears when compiled, so a type may be shared against the arrows.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cycles, valueImports } from './imports.mjs';

/** Each unit and the units it may import values from. */
export const LAYERS = {
  value: [],
  text: [],
  'errors.ts': [],
  // The platform's default time zone, language and root URL (types only).
  'site-defaults.ts': [],
  // The diagnostics_channel events (docs/observability.md): node:diagnostics_channel and types only.
  'diagnostics.ts': [],
  protocol: ['value'],
  php: ['value'],
  plugins: ['value', 'php', 'text'],
  runtime: ['value', 'php', 'plugins', 'protocol'],
  compiler: ['value', 'protocol', 'php', 'plugins', 'text', 'errors.ts'],
  sandbox: ['value', 'protocol', 'compiler', 'errors.ts', 'site-defaults.ts', 'text'],
  // The host side, split by job (D190). What an embedder implements: HostAdapters, every adapter
  // interface, the capabilities, the render's AbortSignal and the host's error.
  'host-api': ['plugins'],
  // Ready-made adapters an embedder may pass: the egress guard, tenant files, mail, documents, geo.
  'host-adapters': ['text', 'host-api'],
  // The host implementations of the privileged plugins and host modifiers, and their contract.
  'host-plugins': ['value', 'php', 'plugins', 'protocol', 'host-api', 'host-adapters'],
  // The trust boundary alone: parse, validate, count, run the implementation, redact, answer.
  bridge: ['value', 'protocol', 'diagnostics.ts', 'host-api', 'host-plugins', 'site-defaults.ts'],
  'compiled-templates.ts': ['value', 'protocol', 'compiler', 'sandbox', 'errors.ts'],
  'engine-internal.ts': [],
  // The Node version check the package entries load first (imports nothing).
  'node-version.ts': [],
  // An engine's own plugins: their names checked by the compiler's rules, run by the bridge.
  'engine-plugins.ts': ['value', 'plugins', 'compiler', 'bridge', 'host-plugins'],
  'engine.ts': [
    'value',
    'protocol',
    'compiler',
    'sandbox',
    'bridge',
    // The render's AbortSignal (an embedder's cancel reaches the host work through it).
    'host-api',
    'compiled-templates.ts',
    'engine-internal.ts',
    'engine-plugins.ts',
    'errors.ts',
    'text',
    'diagnostics.ts',
    'site-defaults.ts',
  ],
  'index.ts': [
    'node-version.ts',
    'value',
    'compiler',
    'sandbox',
    'bridge',
    'host-api',
    'host-plugins',
    'host-adapters',
    'engine.ts',
    'engine-plugins.ts',
    'errors.ts',
    'diagnostics.ts',
    'site-defaults.ts',
  ],
  forms: ['text'],
  // What our HTTP servers share: a body read with a limit, answers, CSPs, HTML escaping (node:http only).
  http: [],
  'forms-ui': ['forms', 'text', 'host-adapters', 'http'],
  security: [
    'node-version.ts',
    'value',
    'protocol',
    'php',
    'plugins',
    'compiler',
    'sandbox',
    // The host contract the harness's host implements and its cases extend (withAdapters).
    'host-api',
    'host-adapters',
    // The limits a case checks against (ML-06: requests a render may make).
    'host-plugins',
    'compiled-templates.ts',
    'engine.ts',
    'engine-internal.ts',
    'errors.ts',
    // The host-call channel: which renders took the synchronous slice (OPS-17).
    'diagnostics.ts',
    'text',
  ],
  lsp: ['compiler', 'plugins'],
  // A local site is a host written as an embedder writes one: the public entry only. Its web app
  // (src/site/app: `serve --site`) shows its pages with the forms UI, over the shared HTTP helpers.
  site: ['index.ts', 'http', 'forms', 'forms-ui', 'text'],
  cli: [
    'site',
    'value',
    'protocol',
    'php',
    'plugins',
    'compiler',
    'sandbox',
    'host-api',
    'host-adapters',
    'compiled-templates.ts',
    'engine.ts',
    'errors.ts',
    'text',
    'forms',
    'forms-ui',
    'security',
    'lsp',
    'site-defaults.ts',
  ],
};

/** The unit of a path relative to the repository root (`src/php/json/x.ts` -> `php`), or null outside src/. */
export function unitOf(rel) {
  const parts = rel.split(/[\\/]/);
  if (parts[0] !== 'src' || parts.length < 2) return null;
  return parts[1];
}

/** Why `from` may not import `to` (paths relative to the root), or null when it may. */
export function layerViolation(from, to) {
  const a = unitOf(from);
  const b = unitOf(to);
  if (a === null || b === null || a === b) return null;
  const allowed = LAYERS[a];
  if (!allowed) return `src/${a} is not in the layer table (scripts/lint/layers.mjs)`;
  if (!LAYERS[b]) return `src/${b} is not in the layer table (scripts/lint/layers.mjs)`;
  return allowed.includes(b)
    ? null
    : `src/${a} may not import src/${b} (layers: scripts/lint/layers.mjs, docs/architecture.md)`;
}

/** Everything wrong with src/ under the rule, as lines of text (empty when all holds). */
export function checkLayers(root) {
  const problems = [];
  for (const c of cycles(new Map(Object.entries(LAYERS)))) problems.push(`the layer table has a cycle: ${c.join(' ')}`);
  const graph = valueImports(root);
  for (const [file, deps] of graph) {
    for (const d of deps) {
      const why = layerViolation(file, d);
      if (why) problems.push(`${file} imports ${d}: ${why}`);
    }
  }
  for (const c of cycles(graph)) problems.push(`a value-import cycle among: ${c.join(', ')}`);
  return problems;
}

/** ESLint rule: reports a value import that the table does not allow, where it is written. */
export const layersRule = {
  meta: {
    type: 'problem',
    docs: { description: 'imports follow the layers of src/ (scripts/lint/layers.mjs)' },
    schema: [],
  },
  create(context) {
    const root = context.cwd;
    const file = path.relative(root, context.filename);
    if (unitOf(file) === null) return {};
    const check = (node, source, typeOnly) => {
      if (typeOnly || !source || typeof source.value !== 'string' || !source.value.startsWith('.')) return;
      const target = path
        .relative(root, path.resolve(path.dirname(context.filename), source.value))
        .replace(/\.js$/, '.ts');
      const why = layerViolation(file, target);
      if (why) context.report({ node: source, message: why });
    };
    const named = (node) =>
      node.importKind === 'type' ||
      node.exportKind === 'type' ||
      (node.specifiers?.length > 0 && node.specifiers.every((s) => s.importKind === 'type' || s.exportKind === 'type'));
    return {
      ImportDeclaration: (node) => check(node, node.source, named(node)),
      ExportNamedDeclaration: (node) => check(node, node.source, named(node)),
      ExportAllDeclaration: (node) => check(node, node.source, node.exportKind === 'type'),
      ImportExpression: (node) => check(node, node.source, false),
    };
  },
};

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
  const problems = checkLayers(root);
  for (const p of problems) console.error(p);
  console.log(
    problems.length ? `layers: ${problems.length} problems` : 'layers: src/ follows the layer table, no import cycles',
  );
  process.exit(problems.length ? 1 : 0);
}
