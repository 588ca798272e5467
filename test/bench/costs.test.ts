/**
 * bench/costs.ts --isolate: the list variants and a page's variants rendered in a bench isolate,
 * loop and fresh, each a row with its figures (D287). The figures are bench/README.md's; they are
 * not asserted here.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

const costs = (...args: string[]) =>
  spawnSync(
    process.execPath,
    [
      '--no-node-snapshot',
      '--import',
      'tsx',
      'bench/costs.ts',
      '--isolate',
      '--rounds',
      '1',
      '--renders',
      '2',
      ...args,
    ],
    { encoding: 'utf8', timeout: 120_000 },
  );

/** The first cell of each table row with a figure in its second. */
const rows = (out: string) => [...out.matchAll(/^\| (.+?) \| \d+\.\d \(\d+\.\d\) \|/gm)].map((m) => m[1]!);

describe('bench/costs.ts --isolate', () => {
  it('times every list variant, then the hand-written page in the same isolate', () => {
    const r = costs();
    expect(r.status, r.stderr).toBe(0);
    const names = rows(r.stdout);
    expect(names[0]).toBe('floor: {$item.id}');
    expect(names).toContain('+ escape (title)');
    expect(names).toContain('+ truncate:80, escape');
    expect(names.at(-2)).toBe('the list page');
    expect(names.at(-1)).toBe('the hand-written page, same isolate');
  }, 150_000);

  it("times a page without each of its modifiers (the mail page's four)", () => {
    const r = costs('--page', 'mail');
    expect(r.status, r.stderr).toBe(0);
    expect(rows(r.stdout)).toEqual([
      'empty, no vars',
      "empty, the page's vars",
      'the page without modifiers',
      'the page without date_format',
      'the page without number_format',
      'the page without wordwrap',
      'the page without nl2br',
      'the page',
    ]);
  }, 150_000);
});
