/**
 * Which worker a tenant goes to (src/sandbox/pool.ts `hash`): names that differ in one
 * character spread over 2 workers, not by the parity of their characters (FNV-1a's low bit alone).
 */
import { describe, expect, it } from 'vitest';
import { spreadHash as hash } from '../../src/text/string-hash.js';

const spread = (names: string[], workers: number): number[] => {
  const n = Array.from({ length: workers }, () => 0);
  for (const name of names) n[hash(name) % workers]!++;
  return n;
};

describe('tenants over workers', () => {
  it('names whose characters have the same parity go to both of 2 workers', () => {
    // a, c, e, g... are odd: FNV-1a's low bit put every one of these on the same worker.
    const odd = 'acegikmoqsuwy'.split('').map((c) => `site-${c}`);
    expect(Math.min(...spread(odd, 2))).toBeGreaterThanOrEqual(3);
  });

  it('a thousand names split within 10% of even over 2, 3 and 4 workers', () => {
    const names = Array.from({ length: 1000 }, (_, i) => `tenant-${i * 2}`);
    for (const w of [2, 3, 4]) for (const n of spread(names, w)) expect(Math.abs(n - 1000 / w)).toBeLessThan(100 / w);
  });
});
