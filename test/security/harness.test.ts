/**
 * The security catalogue in CI: every automated case of docs/security.md must
 * be contained. Each case is one test. Timings (goals G3-G7) are reported by `npm run security`,
 * not asserted here. The timing cases (CPU-01..04, RX-01, OPS-07) run 20 times each here (100 in
 * `npm run security`): every run must end with its limit error naming the template line.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { runSecurityHarness, type HarnessReport } from '../../src/security/harness.js';
import { CATALOGUE } from '../../src/security/cases/index.js';

let report: HarnessReport;

describe('security catalogue', () => {
  beforeAll(async () => {
    report = await runSecurityHarness({ repeat: 20 });
  }, 20 * 60_000);

  it('automates at least 100 of the catalogue', () => {
    expect(report.results.length).toBeGreaterThanOrEqual(100);
    expect(report.results.length + report.notAutomated.length).toBe(
      184 + CATALOGUE.filter((c) => !/^[A-Z]+-\d\d$/.test(c.id)).length,
    );
  });

  for (const c of CATALOGUE) {
    it(`${c.id}: ${c.title}`, () => {
      const r = report.results.find((x) => x.id === c.id);
      expect(r, 'the case ran').toBeDefined();
      expect(r!.outcome.status, r!.outcome.detail).toBe('contained');
    });
  }
});
