#!/usr/bin/env node
// Regenerates the committed PHP answers in test/fixtures/php (see test/support/php-golden.ts):
// runs every test file that reads them with UPDATE_PHP_FIXTURES=1, so each phpGolden() call asks
// live PHP and rewrites its fixture, then prints what changed, case by case.
//
//   npm run fixtures:php            regenerate and report
//   npm run fixtures:php -- --prune also delete fixtures that no test wrote any more
//   npm run fixtures:php -- test/php/pcre/preg-table.test.ts   only these test files
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const fixtureDir = join(root, 'test', 'fixtures', 'php');
const args = process.argv.slice(2);
const prune = args.includes('--prune');
const only = args.filter((a) => !a.startsWith('--'));

function walk(dir, keep, out = []) {
  if (!existsSync(dir)) return out;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) walk(p, keep, out);
    else if (keep(e.name)) out.push(p);
  }
  return out;
}

/** Test files that reach test/support/php-golden.ts through their imports (helpers included). */
function goldenTestFiles() {
  const files = walk(join(root, 'test'), (n) => n.endsWith('.ts'));
  const imports = new Map(
    files.map((f) => {
      const src = readFileSync(f, 'utf8');
      const specs = [...src.matchAll(/from\s+'(\.{1,2}\/[^']+)'/g)].map((m) =>
        resolve(dirname(f), m[1]).replace(/\.js$/, '.ts'),
      );
      return [f, specs];
    }),
  );
  const golden = new Set([join(root, 'test', 'support', 'php-golden.ts')]);
  for (let grew = true; grew;) {
    grew = false;
    for (const [f, specs] of imports) {
      if (!golden.has(f) && specs.some((s) => golden.has(s))) {
        golden.add(f);
        grew = true;
      }
    }
  }
  const recheck = join(root, 'test', 'conformance', 'php-fixtures.test.ts');
  return [...golden].filter((f) => f.endsWith('.test.ts') && f !== recheck).sort();
}

/** name -> Map(call JSON -> result JSON) for every fixture on disk. */
function snapshot() {
  const out = new Map();
  for (const file of walk(fixtureDir, (n) => n.endsWith('.json'))) {
    const name = relative(fixtureDir, file).replace(/\.json$/, '');
    const cases = JSON.parse(readFileSync(file, 'utf8')).cases;
    const byCall = new Map(cases.map((c) => [JSON.stringify(c.call), JSON.stringify(c.result)]));
    out.set(name, Object.assign(byCall, { count: cases.length }));
  }
  return out;
}

const tests = only.length > 0 ? only.map((f) => resolve(f)) : goldenTestFiles();
if (tests.length === 0) {
  console.error('no test file uses phpGolden');
  process.exit(1);
}
const php = spawnSync('php', ['-r', 'echo PHP_VERSION;'], { encoding: 'utf8' });
if (php.status !== 0) {
  console.error('php is not available: fixtures are generated from live PHP');
  process.exit(1);
}

const before = snapshot();
const tmp = mkdtempSync(join(tmpdir(), 'php-fixtures-'));
const touchedFile = join(tmp, 'touched');
console.log(`PHP ${php.stdout}: regenerating fixtures from ${tests.length} test files`);
const run = spawnSync('npx', ['vitest', 'run', ...tests.map((t) => relative(root, t))], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, UPDATE_PHP_FIXTURES: '1', PHP_FIXTURES_TOUCHED: touchedFile },
});
const touched = new Set(existsSync(touchedFile) ? readFileSync(touchedFile, 'utf8').split('\n').filter(Boolean) : []);
rmSync(tmp, { recursive: true, force: true });
const after = snapshot();

console.log('\nPHP fixtures:');
let changes = 0;
let total = 0;
for (const name of [...new Set([...before.keys(), ...after.keys()])].sort()) {
  const a = before.get(name);
  const b = after.get(name);
  if (b) total += b.count;
  if (!a) {
    console.log(`  new      ${name} (${b.count} cases)`);
    changes++;
    continue;
  }
  if (!b) continue;
  const added = [...b.keys()].filter((k) => !a.has(k)).length;
  const removed = [...a.keys()].filter((k) => !b.has(k)).length;
  const changed = [...b.keys()].filter((k) => a.has(k) && a.get(k) !== b.get(k));
  if (added || removed || changed.length) {
    changes++;
    console.log(`  changed  ${name}: +${added} -${removed} cases, ${changed.length} answers differ`);
    for (const k of changed.slice(0, 5))
      console.log(`    ${k.slice(0, 160)}\n      was ${a.get(k).slice(0, 160)}\n      now ${b.get(k).slice(0, 160)}`);
  }
}
// A full run writes every fixture a test uses; the rest belong to tests that were removed or renamed.
const stale = only.length > 0 ? [] : [...after.keys()].filter((n) => !touched.has(n));
for (const name of stale) {
  if (prune) {
    unlinkSync(join(fixtureDir, `${name}.json`));
    console.log(`  deleted  ${name} (no test uses it)`);
  } else {
    console.log(`  stale    ${name} (no test wrote it; --prune deletes it)`);
  }
}
console.log(
  changes === 0 && stale.length === 0
    ? `  unchanged (${after.size} files, ${total} cases)`
    : `  ${after.size} files, ${total} cases`,
);
if (run.status !== 0) {
  console.error('\nsome tests failed (the fixtures hold what PHP answered; the failures are differences of ours)');
  process.exit(run.status ?? 1);
}
