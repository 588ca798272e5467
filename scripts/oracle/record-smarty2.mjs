#!/usr/bin/env node
// Records the expected output of our own Smarty 2 cases with real Smarty 2.6.33 on PHP 8.2.
//
//   SMARTY2_DIR=/tmp/smarty2 node scripts/oracle/record-smarty2.mjs [AREA...]   re-record
//   SMARTY2_DIR=/tmp/smarty2 node scripts/oracle/record-smarty2.mjs --check      compare, write nothing
//   ... record-smarty2.mjs --dir ../shared/conformance/wild    cases kept outside the project (below)
//
// Inputs: test/conformance/smarty2/<area>.cases.jsonl, one case a line:
//   {"id": "...", "template": "...", "vars": {...}, "objects": false, "php_functions": false, "includes": {"name.tpl": "..."},
//    "default_modifiers": ["escape:\"html\""], "note": "..."}
//   (php_functions, default_modifiers: see smarty2-record.php)
//   A template taken from a public project also has "source": {"repo", "commit", "path", "license",
//   "changes"} (what was replaced, and why), kept as it is in the recorded file.
// Output: test/conformance/smarty2/<area>.recorded.jsonl, the same cases with `error` and `expect`
//   (or `expect_base64` when Smarty printed bytes that are not UTF-8). Vars are kept as JSON text so
//   that PHP's key order is exactly what the test passes on.
// SMARTY2_DIR is an unpacked Smarty 2.6.33 release (git archive v2.6.33 of smarty-php/smarty into a
// folder outside this project); it is never part of the project.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const PHP = fileURLToPath(new URL('./smarty2-record.php', import.meta.url));
const args = process.argv.slice(2);
const check = args.includes('--check');
// --dir: a folder of *.cases.jsonl kept outside the project, such as the real-world corpus in the
// steering repository's shared/conformance/wild/ (third-party templates are never committed here;
// test/conformance/smarty2-recorded.test.ts checks that folder's recorded files when it exists).
const dirAt = args.indexOf('--dir');
const DIR =
  dirAt >= 0
    ? `${args[dirAt + 1].replace(/\/$/, '')}/`
    : fileURLToPath(new URL('../../test/conformance/smarty2/', import.meta.url));
const only = args.filter((a, i) => !a.startsWith('--') && !(dirAt >= 0 && i === dirAt + 1));

if (!process.env.SMARTY2_DIR) {
  console.error('record-smarty2: set SMARTY2_DIR to an unpacked Smarty 2.6.33 (see the header of this script)');
  process.exit(2);
}

let differences = 0;
for (const file of readdirSync(DIR)
  .filter((f) => f.endsWith('.cases.jsonl'))
  .sort()) {
  const area = file.replace(/\.cases\.jsonl$/, '');
  if (only.length && !only.includes(area)) continue;
  const cases = readFileSync(DIR + file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  // {counter} and {cycle} keep their state in PHP statics for the whole process (Smarty 2's
  // plugins), which would carry one case's counters, delimiters and `assign` into the next: a case
  // that names either is rendered in a PHP process of its own, as a page is; the rest share one.
  const stateful = (c) => /counter|cycle/.test(c.template + Object.values(c.includes ?? {}).join(''));
  const batches = [cases.filter((c) => !stateful(c)), ...cases.filter(stateful).map((c) => [c])];
  const results = new Map();
  for (const batch of batches) {
    if (!batch.length) continue;
    for (const x of renderWithSmarty2(batch)) results.set(x.id, x);
  }
  const recorded = cases.map((c) => {
    const res = results.get(c.id);
    if (!res) throw new Error(`no result for ${c.id}`);
    const out = {
      id: c.id,
      area,
      template: c.template,
      vars: JSON.stringify(c.vars ?? {}),
      ...(c.objects ? { objects: true } : {}),
      ...(c.php_functions ? { php_functions: true } : {}),
      ...(c.includes ? { includes: c.includes } : {}),
      ...(c.default_modifiers ? { default_modifiers: c.default_modifiers } : {}),
      error: res.error,
    };
    if (!res.error) {
      const bytes = Buffer.from(res.output_base64, 'base64');
      const text = bytes.toString('utf8');
      out.expect = text;
      if (!Buffer.from(text, 'utf8').equals(bytes)) out.expect_base64 = res.output_base64;
    }
    if (c.note) out.note = c.note;
    if (c.source) out.source = c.source;
    return out;
  });
  const text = recorded.map((x) => JSON.stringify(x)).join('\n') + '\n';
  const target = `${DIR}${area}.recorded.jsonl`;
  if (check) {
    let old = '';
    try {
      old = readFileSync(target, 'utf8');
    } catch {}
    if (old !== text) {
      differences++;
      console.error(`record-smarty2: ${area}: the recorded file differs from what Smarty 2.6.33 gives now`);
    }
  } else {
    writeFileSync(target, text);
    console.log(
      `record-smarty2: ${area}: ${recorded.length} cases (${recorded.filter((x) => x.error).length} compile errors)`,
    );
  }
}
process.exit(differences ? 1 : 0);

/** The results of one PHP process that renders `cases` in order. */
function renderWithSmarty2(cases) {
  const input =
    cases
      .map((c) =>
        JSON.stringify({
          id: c.id,
          template: c.template,
          vars: JSON.stringify(c.vars ?? {}),
          objects: c.objects ?? false,
          php_functions: c.php_functions ?? false,
          includes: c.includes ?? {},
          default_modifiers: c.default_modifiers ?? [],
        }),
      )
      .join('\n') + '\n';
  const r = spawnSync('php', [PHP], { input, encoding: 'utf8', env: process.env, maxBuffer: 64 << 20 });
  if (r.status !== 0) {
    // A fatal error stops PHP itself, past what the recorder's handler catches: PHP refusing the
    // compiled template (`isset()` of an expression, which a default modifier can make). Each case
    // then runs alone, and the one whose process PHP stops is a template Smarty 2 cannot render.
    if (cases.length > 1) return cases.flatMap((c) => renderWithSmarty2([c]));
    const why = (r.stdout + r.stderr).match(/(?:Fatal|Parse) error: .*/)?.[0];
    if (!why) {
      console.error(r.stderr);
      process.exit(1);
    }
    console.error(`record-smarty2: ${cases[0].id}: PHP stopped (${why.slice(0, 200)}): recorded as an error`);
    return [{ id: cases[0].id, error: true, message: why }];
  }
  return r.stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}
