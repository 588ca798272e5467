/**
 * bench/contexts.ts (D333): the list page over tenants in turn, an isolate each against a context
 * each in one shared isolate, and memory per tenant of the two. Short real runs: every setup is a
 * row with its figures (the outputs are checked equal before anything is timed). The figures are
 * bench/README.md's; they are not asserted here.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

const contexts = (...args: string[]) =>
  spawnSync(process.execPath, ['--no-node-snapshot', '--expose-gc', '--import', 'tsx', 'bench/contexts.ts', ...args], {
    encoding: 'utf8',
    timeout: 180_000,
  });

describe('bench/contexts.ts', () => {
  it('times one tenant, an isolate each and a context each', () => {
    const r = contexts('--tenants', '2', '--rounds', '1', '--renders', '2');
    expect(r.status, r.stderr).toBe(0);
    const rows = [...r.stdout.matchAll(/^\| (\w+) \| \d+ \(\d+-\d+\) \| \d+\.\d\d \| \d+ \|$/gm)].map((m) => m[1]);
    expect(rows).toEqual(['one', 'isolates', 'contexts']);
  });

  it('--rss gives the memory per tenant of both, each from processes of its own', () => {
    const r = contexts('--rss', '--tenants', '2', '--runs', '1');
    expect(r.status, r.stderr).toBe(0);
    const rows = [...r.stdout.matchAll(/^\| (\w+) \| -?\d+ \(-?\d+--?\d+\) \| \d+ \(\d+-\d+\) \|$/gm)].map((m) => m[1]);
    expect(rows).toEqual(['isolates', 'contexts']);
  });
});
