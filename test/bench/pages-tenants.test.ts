/**
 * `npm run bench:pages -- --tenants N` (bench/pages.ts, D315): one more smartcage row whose renders
 * go to N tenants in turn. A real run of one small page, short, without Smarty (no SMARTY2_DIR):
 * the row is there, its outputs were checked equal like every row's, and a bad count is refused.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

const run = (...args: string[]) =>
  spawnSync(process.execPath, ['--no-node-snapshot', '--import', 'tsx', 'bench/pages.ts', ...args], {
    encoding: 'utf8',
    env: { ...process.env, SMARTY2_DIR: '' },
  });

describe('npm run bench:pages -- --tenants', () => {
  it('adds a row of renders over that many tenants in turn', () => {
    const r = run('--only', 'mail', '--rounds', '1', '--renders', '5', '--tenants', '3');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/outputs equal on 1 pages \(4 subjects\)/);
    const header = r.stdout.split('\n').find((l) => l.startsWith('| page |'))!;
    expect(header).toContain('| smartcage | smartcage, 3 tenants |');
    expect(header).toContain('smartcage, 3 tenants / hand');
    expect(r.stdout).toMatch(/^\| mail \|( \d+ \|){4}/m);
  });

  it('refuses a count that is not a whole number >= 1', () => {
    const r = run('--tenants', '0');
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--tenants/);
  });
});
