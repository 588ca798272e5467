/**
 * Differential test against Debian's Smarty 3.1 (php-cli + smarty3): every output fixture is
 * rendered by real Smarty 3 too, except those whose --SMARTY3-- section documents why Smarty 2
 * or the platform behave differently (docs/dialect.md, "Smarty 3 is not Smarty 2"). This checks the
 * hand-written expectations of the fixtures against a real engine.
 */
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { loadFixtures } from '../support/fixtures.js';
import { toBytes } from '../../src/value/bytes.js';

const SCRIPT = fileURLToPath(new URL('../../scripts/oracle/smarty3-render.php', import.meta.url));
const fixtures = loadFixtures(fileURLToPath(new URL('../fixtures', import.meta.url)));
const compared = fixtures.filter((f) => f.expect !== null && f.smarty3Differs === null);

// One php process per case: Smarty's {counter} and {cycle} keep state per process.
function renderWithSmarty3(): { ok: boolean; output?: string; error?: string }[] {
  return compared.map((f) => {
    // The data goes in as its raw JSON text: JSON.parse would move integer-like keys first.
    const request = `{"template":${JSON.stringify(f.template)},"includes":${JSON.stringify(f.includes)},"vars":${f.data ?? '{}'}}`;
    const out = execFileSync('php', [SCRIPT], { input: request + '\n', maxBuffer: 64 * 1024 * 1024 }).toString('utf8');
    return JSON.parse(out.trim());
  });
}

describe('fixtures agree with Smarty 3.1 where Smarty 2 and Smarty 3 agree', () => {
  const results = renderWithSmarty3();
  it('compares a meaningful number of fixtures', () => {
    expect(results.length).toBe(compared.length);
    expect(compared.length).toBeGreaterThanOrEqual(20);
  });
  compared.forEach((f, i) => {
    it(f.file, () => {
      const r = results[i];
      expect(r.ok, r.error).toBe(true);
      expect(Buffer.from(r.output!, 'base64').toString('base64')).toBe(
        Buffer.from(toBytes(f.expect!)).toString('base64'),
      );
    });
  });
});
