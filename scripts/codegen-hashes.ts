/**
 * One hash per case of the generated JavaScript for every template fixture, golden corpus case,
 * recorded Smarty 2 case and plugin example: a refactoring that must not change generated code
 * shows 0 differences between two runs (`--compare before.json`).
 *   node --import tsx scripts/codegen-hashes.ts > /tmp/before.json
 *   node --import tsx scripts/codegen-hashes.ts --compare /tmp/before.json
 */
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { compile } from '../src/compiler/index.js';
import { ALL_PLUGINS } from '../src/plugins/registry.js';
import { loadFixtures } from '../test/support/fixtures.js';
import { loadGolden } from '../test/support/golden.js';

const hashes: Record<string, string> = {};
const hashOf = (id: string, source: string, opts: Parameters<typeof compile>[1] = {}): void => {
  const r = compile(source, { name: id, ...opts });
  hashes[id] = createHash('sha256')
    .update(r.code)
    .update('\0')
    .update(JSON.stringify(r.manifest))
    .update(JSON.stringify(r.diagnostics))
    .digest('hex')
    .slice(0, 16);
};

for (const f of loadFixtures(fileURLToPath(new URL('../test/fixtures', import.meta.url)))) {
  hashOf(`fixture:${f.file}`, f.template, { templates: (n) => f.includes[n], functions: (k) => f.functions[k] });
}
for (const c of loadGolden()) if (c.template !== undefined) hashOf(`golden:${c.id}`, c.template);
const recorded = new URL('../test/conformance/smarty2/', import.meta.url);
for (const file of readdirSync(recorded)
  .filter((n) => n.endsWith('.cases.jsonl'))
  .sort()) {
  for (const line of readFileSync(new URL(file, recorded), 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const c = JSON.parse(line) as { id: string; template: string };
    hashOf(`smarty2:${c.id}`, c.template);
  }
}
for (const p of ALL_PLUGINS)
  for (const [i, ex] of (p.examples ?? []).entries()) hashOf(`example:${p.kind}:${p.name}:${i}`, ex.template);

const compareIdx = process.argv.indexOf('--compare');
if (compareIdx < 0) {
  process.stdout.write(JSON.stringify(hashes, null, 1) + '\n');
} else {
  const before = JSON.parse(readFileSync(process.argv[compareIdx + 1]!, 'utf8')) as Record<string, string>;
  const keys = new Set([...Object.keys(before), ...Object.keys(hashes)]);
  const diff = [...keys].filter((k) => before[k] !== hashes[k]);
  for (const k of diff) console.log(`differs: ${k}`);
  console.log(`${keys.size} cases, ${diff.length} differences`);
  process.exitCode = diff.length ? 1 : 0;
}
