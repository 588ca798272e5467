/**
 * `npm run bench:ab` (bench/ab.ts): its usage contract. A real comparison builds revisions in
 * worktrees and rewrites dist/runtime.bundle.js, which the other tests read while they run, so
 * only the argument handling is exercised here; bench/README.md shows a real run.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

const run = (...args: string[]) =>
  spawnSync(process.execPath, ['--no-node-snapshot', '--import', 'tsx', 'bench/ab.ts', ...args], { encoding: 'utf8' });

describe('npm run bench:ab', () => {
  it('--help prints the usage and exits 0', () => {
    const r = run('--help');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^Usage: npm run bench:ab -- \[--row a\|request\]/);
    expect(r.stdout).toMatch(/Exit status: 0 done, 2 wrong usage/);
  });

  for (const [what, args, message] of [
    ['no revision', [], /name at least one revision/],
    ['an unknown option', ['--fast', 'HEAD'], /unknown option --fast/],
    ['a count that is not a whole number >= 1', ['--rounds', '0', 'HEAD'], /--rounds needs a whole number >= 1/],
    ['a row it does not know', ['--row', 'b', 'HEAD'], /--row takes a or request/],
    ['a page for row (a)', ['--page', 'mail', 'HEAD'], /--page is for --row request/],
    ['a page name that is not one', ['--row', 'request', '--page', '../x', 'HEAD'], /--page takes a page name/],
  ] as const) {
    it(`${what}: exit 2 with the reason and the usage`, () => {
      const r = run(...args);
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).toMatch(/Usage:/);
    });
  }
});
