#!/usr/bin/env node
// `npm test`: runs vitest and ends with the plain line CI reads: "N passed, N failed".
import { spawnSync } from 'node:child_process';
import { readFileSync, mkdirSync, rmSync } from 'node:fs';

mkdirSync('test-artifacts', { recursive: true });
const out = 'test-artifacts/vitest.json';
// A report left by an earlier run must never be read as this run's.
rmSync(out, { force: true });
const r = spawnSync(
  process.execPath,
  [
    'node_modules/vitest/vitest.mjs',
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${out}`,
    ...process.argv.slice(2),
  ],
  { stdio: 'inherit' },
);
let summary = null;
try {
  summary = JSON.parse(readFileSync(out, 'utf8'));
} catch {
  // vitest did not get far enough to write its report
}
if (summary) {
  const skipped = summary.numPendingTests + (summary.numTodoTests ?? 0);
  // A test file that fails before any test runs (an import or a top-level read that throws)
  // counts no failed test in vitest's report: it counts as one failure here, so the line never
  // says "0 failed" while vitest exits 1.
  const brokenFiles = summary.testResults.filter(
    (f) => f.status === 'failed' && !f.assertionResults.some((a) => a.status === 'failed'),
  ).length;
  const failed = summary.numFailedTests + brokenFiles;
  console.log(`${summary.numPassedTests} passed, ${failed}${skipped ? ` failed, ${skipped} skipped` : ' failed'}`);
} else {
  console.log('0 passed, 1 failed');
}
process.exit(r.status ?? 1);
