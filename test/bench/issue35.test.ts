/**
 * bench/lib/issue35.ts reads issue 35's figures from what bench/pages.ts and bench/serve.ts print.
 * The texts below are a full run's (bench/RESULTS.md, 2026-11-30); a live run of pages.ts without
 * Smarty 2.6.33 has no column to read.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { readPages, readServe } from '../../bench/lib/issue35.js';

const PAGES = `Multi-page benchmark: CPU µs per render, median of 5 rounds x 300 renders; PHP 8.2.36, OPcache on

| page | hand-written | Eta | smartcage | smartcage, 16 tenants | Smarty 2.6.33 | smartcage / hand | smartcage / Smarty 2 | smartcage, 16 tenants / hand | smartcage, 16 tenants / Smarty 2 |
|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|
| list | 301 | 332 | 825 | 1089 | 538 | 2.74 | 1.53 | 3.61 | 2.02 |
| mail | 16 | 15 | 209 | 469 | 109 | 12.75 | 1.91 | 28.60 | 4.30 |
| json | 198 | 200 | 456 | 843 | 86 | 2.31 | 5.30 | 4.27 | 9.81 |
| ja | 248 | 262 | 369 | 687 | 597 | 1.49 | 0.62 | 2.77 | 1.15 |
| section | 33 | 26 | 214 | 394 | 724 | 6.43 | 0.30 | 11.84 | 0.54 |
| **geometric mean** | 96 | 93 | 362 | 650 | 294 | **3.78** | **1.23** | **6.79** | **2.22** |`;

const SERVE = `rps: news serve: 5409 requests in 15.1 s, 359 req/s, 340 req per CPU-second of its process tree (2.945 ms CPU per request; its first process alone 1.934 ms), p50 21.3 ms
rps: news plain: 50199 requests in 15.0 s, 3339 req/s, 3675 req per CPU-second of its process tree (0.272 ms CPU per request; its first process alone 0.272 ms), p50 1.9 ms
rps: me serve: 25502 requests in 15.0 s, 1697 req/s, 1671 req per CPU-second of its process tree (0.598 ms CPU per request; its first process alone 0.386 ms), p50 4.0 ms
rps: me plain: 129851 requests in 15.0 s, 8630 req/s, 26773 req per CPU-second of its process tree (0.037 ms CPU per request; its first process alone 0.037 ms), p50 0.6 ms
rps: news: serve / plain per core 0.09x (goal >= 0.5x); CPU per request 10.8x the plain server's (goal <= 3x); 2.95 ms (goal <= 1.5 ms)
rps: me: serve / plain per core 0.06x; CPU per request 16.0x the plain server's (goal <= 3x)
rps: news processes: 7409 requests in 15.1 s, 490 req/s, 612 req per CPU-second of its process tree (1.634 ms CPU per request; its first process alone 0.034 ms), p50 15.3 ms
rps: news: processes / plain per core 0.17x (goal >= 0.5x); CPU per request 6.0x the plain server's (goal <= 3x); 1.63 ms (goal <= 1.5 ms)`;

describe('bench/lib/issue35.ts', () => {
  it("reads each page's ratio to Smarty 2.6.33, for one tenant and for many in turn", () => {
    const p = readPages(PAGES)!;
    expect([...p.bySmarty]).toEqual([
      ['list', 1.53],
      ['mail', 1.91],
      ['json', 5.3],
      ['ja', 0.62],
      ['section', 0.3],
      ['geometric mean', 1.23],
    ]);
    expect(p.tenantsLabel).toBe('smartcage, 16 tenants');
    expect(p.tenantsBySmarty.get('geometric mean')).toBe(2.22);
  });

  it('reads the column of the same tenants sharing isolates (--shared, D342) apart from the 16 tenants', () => {
    // bench/pages.ts --tenants 16 --shared 16, 2026-11-30 16:26 UTC, load ~1 (its list, json and geometric mean rows).
    const p =
      readPages(`| page | hand-written | Eta | smartcage | smartcage, 16 tenants | smartcage, 16 tenants sharing isolates 16 at a time | Smarty 2.6.33 | smartcage / hand | smartcage / Smarty 2 | smartcage, 16 tenants / hand | smartcage, 16 tenants / Smarty 2 | smartcage, 16 tenants sharing isolates 16 at a time / hand | smartcage, 16 tenants sharing isolates 16 at a time / Smarty 2 |
|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|
| list | 164 | 241 | 411 | 1274 | 1015 | 330 | 2.50 | 1.25 | 7.75 | 3.86 | 6.18 | 3.07 |
| json | 161 | 120 | 277 | 657 | 382 | 51 | 1.72 | 5.48 | 4.07 | 13.00 | 2.37 | 7.56 |
| **geometric mean** | 74 | 82 | 303 | 692 | 462 | 202 | **4.12** | **1.50** | **9.40** | **3.43** | **6.27** | **2.29** |`)!;
    expect(p.bySmarty.get('list')).toBe(1.25);
    expect(p.tenantsLabel).toBe('smartcage, 16 tenants');
    expect(p.tenantsBySmarty.get('geometric mean')).toBe(3.43);
    expect(p.sharedLabel).toBe('sharing isolates 16 at a time');
    expect([...p.sharedBySmarty]).toEqual([
      ['list', 3.07],
      ['json', 7.56],
      ['geometric mean', 2.29],
    ]);
    expect(readPages(PAGES)!.sharedLabel).toBeNull();
  });

  it("reads the floor column (an empty template with the page's vars) apart from the page's own", () => {
    // bench/pages.ts, 2026-12-01 (its list, json and geometric mean rows).
    const p =
      readPages(`| page | hand-written | Eta | smartcage | smartcage, an empty template | Smarty 2.6.33 | smartcage / hand | smartcage / Smarty 2 | smartcage, an empty template / hand | smartcage, an empty template / Smarty 2 |
|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|
| list | 221 | 169 | 432 | 150 | 283 | 1.96 | 1.53 | 0.68 | 0.53 |
| json | 108 | 107 | 286 | 140 | 55 | 2.66 | 5.21 | 1.30 | 2.55 |
| **geometric mean** | 155 | 134 | 351 | 145 | 125 | **2.28** | **2.82** | **0.94** | **1.16** |`)!;
    expect([...p.bySmarty]).toEqual([
      ['list', 1.53],
      ['json', 5.21],
      ['geometric mean', 2.82],
    ]);
    expect([...p.floorBySmarty]).toEqual([
      ['list', 0.53],
      ['json', 2.55],
      ['geometric mean', 1.16],
    ]);
    expect(p.tenantsLabel).toBeNull();
    expect(readPages(PAGES)!.floorBySmarty.size).toBe(0);
  });

  it("reads each endpoint's CPU per request and its ratio to the plain server", () => {
    expect([...readServe(SERVE)]).toEqual([
      ['news', { ms: 2.945, timesPlain: 10.8 }],
      ['me', { ms: 0.598, timesPlain: 16 }],
    ]);
    // The full bench's second variant (--processes 2), apart from the default's.
    expect([...readServe(SERVE, 'processes')]).toEqual([['news', { ms: 1.634, timesPlain: 6 }]]);
  });

  it('finds no Smarty column in a live run of bench/pages.ts without SMARTY2_DIR', () => {
    const r = spawnSync(
      process.execPath,
      ['--no-node-snapshot', '--import', 'tsx', 'bench/pages.ts', '--only', 'mail', '--rounds', '1', '--renders', '5'],
      { encoding: 'utf8', env: { ...process.env, SMARTY2_DIR: '' } },
    );
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^\| page \|/m);
    // The floor's row is there without Smarty: measured against the hand-written function.
    expect(r.stdout).toMatch(/\| smartcage, an empty template \/ hand \|/);
    expect(readPages(r.stdout)).toBeNull();
  });
});
