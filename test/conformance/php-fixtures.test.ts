/**
 * The CI re-check of the committed PHP fixtures (test/fixtures/php): every stored call runs
 * through live PHP and must get the stored answer, so a fixture edited by hand or produced by
 * another PHP cannot pass the tests that read it.
 */
import { describe, expect, it } from 'vitest';
import { callPhp } from '../support/php-oracle.js';
import { allFixtures, canonicalResult, phpGolden, phpGoldenLookup, withRepo } from '../support/php-golden.js';

const fixtures = allFixtures();

describe('phpGolden refuses answers it does not have', () => {
  // Never regenerate from this file: these calls are wrong on purpose.
  process.env.UPDATE_PHP_FIXTURES = '';
  const stored = fixtures.find((f) => f.name === 'php/pcre/unsupported')!;

  it('answers the stored calls from the file', () => {
    expect(
      phpGolden(
        stored.name,
        stored.cases.map((c) => withRepo(c.call)),
      ),
    ).toEqual(stored.cases.map((c) => c.result));
  });
  it('fails when the case table changed', () => {
    const calls = stored.cases.map((c) => withRepo(c.call));
    expect(() => phpGolden(stored.name, calls.slice(1))).toThrow(/is stale.*\n.*\n.*fixtures:php/s);
    expect(() => phpGolden(stored.name, [...calls, { fn: 'strlen', args: ['x'] }])).toThrow(/is stale/);
    expect(() =>
      phpGolden(
        stored.name,
        calls.map((c, i) => (i === 3 ? { ...c, args: ['/x/', 'x'] } : c)),
      ),
    ).toThrow(/call #3 differs/);
  });
  it('fails when the fixture is missing', () => {
    expect(() => phpGolden('no-such/fixture', [{ fn: 'strlen', args: ['x'] }])).toThrow(/is missing/);
    expect(() => phpGoldenLookup('no-such/fixture')({ fn: 'strlen', args: ['x'] })).toThrow(/is missing/);
  });
  it('lookup fails for a call the fixture does not hold', () => {
    expect(() => phpGoldenLookup(stored.name)({ fn: 'strlen', args: ['not stored'] })).toThrow(/has no answer/);
  });
});

describe('committed PHP fixtures equal live PHP', () => {
  it('there are fixtures', () => {
    const total = fixtures.reduce((n, f) => n + f.cases.length, 0);
    console.log(`PHP fixtures: ${fixtures.length} files, ${total} cases`);
    expect(fixtures.length).toBeGreaterThan(0);
    for (const f of fixtures) expect(f.cases.length, f.name).toBeGreaterThan(0);
  });

  for (const f of fixtures) {
    it(`${f.name} (${f.cases.length} cases)`, () => {
      const live = callPhp(f.cases.map((c) => withRepo(c.call)));
      const diffs: string[] = [];
      f.cases.forEach((c, i) => {
        const now = JSON.stringify(canonicalResult(live[i]));
        if (now !== JSON.stringify(c.result)) {
          diffs.push(
            `#${i}${c.label ? ` ${c.label}` : ''} ${JSON.stringify(c.call).slice(0, 200)}\n  stored ${JSON.stringify(c.result).slice(0, 300)}\n  live   ${now.slice(0, 300)}`,
          );
        }
      });
      if (diffs.length > 0)
        throw new Error(
          `${diffs.length} of ${f.cases.length} stored answers differ from live PHP:\n${diffs.slice(0, 10).join('\n')}`,
        );
    });
  }
});
