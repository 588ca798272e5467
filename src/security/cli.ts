#!/usr/bin/env node
/** `npm run security`: runs the whole catalogue, prints the report, exits 1 on any escape. */
import { runSecurityHarness } from './harness.js';
import { formatReport } from './report.js';

const only = process.argv.slice(2).filter((a) => !a.startsWith('-'));
// --repeat=N: runs of each timing case (goals G3, G4); default 100.
const repeatArg = process.argv.find((a) => a.startsWith('--repeat='));
const report = await runSecurityHarness({
  only: only.length ? only : undefined,
  repeat: repeatArg ? Number(repeatArg.slice('--repeat='.length)) || 100 : undefined,
  onCase: (c) =>
    process.stderr.write(
      process.stderr.isTTY || process.env.SMARTCAGE_PROGRESS
        ? `${c.id} ${c.outcome.status} ${c.ms.toFixed(0)} ms\n`
        : c.outcome.status === 'contained'
          ? '.'
          : 'X',
    ),
});
process.stderr.write('\n');
console.log(formatReport(report));
process.exitCode = report.escaped > 0 ? 1 : 0;
