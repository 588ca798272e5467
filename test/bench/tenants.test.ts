/**
 * `npm run bench:tenants` (bench/tenants.ts) on a few tenants: every phase runs in its own process
 * and the table has each figure, positive where it is a size. The figures themselves are
 * bench/README.md's ("Memory per tenant"); their values are not asserted here.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

describe('npm run bench:tenants', () => {
  it('prints a row per figure of the phases asked for', () => {
    const r = spawnSync(
      process.execPath,
      [
        '--no-node-snapshot',
        '--expose-gc',
        '--import',
        'tsx',
        'bench/tenants.ts',
        '--tenants',
        '3',
        '--runs',
        '1',
        '--phases',
        'split,floor',
      ],
      { encoding: 'utf8', timeout: 120_000 },
    );
    expect(r.stderr).not.toMatch(/Error/);
    expect(r.status).toBe(0);
    const rows = new Map(
      [...r.stdout.matchAll(/^\| ([\w.]+) \| (-?\d+) \|/gm)].map((m) => [m[1]!, Number(m[2])] as const),
    );
    expect([...rows.keys()]).toEqual(
      expect.arrayContaining(['rssPerIsolateKB', 'heap.usedKB', 'heap.externalKB', 'emptyIsolateKB']),
    );
    expect(rows.has('rssPerTenantKB')).toBe(false);
    // The runtime's text is external memory of every isolate; an isolate uses some heap.
    expect(rows.get('heap.externalKB')).toBeGreaterThan(100);
    expect(rows.get('heap.usedKB')).toBeGreaterThan(rows.get('empty.heapUsedKB')!);
  }, 150_000);
});
