/**
 * examples/limits.mjs, the limits of docs/limits.md met one by one, run as a user runs it (the
 * built package, imported by name). What it prints is what the guide shows.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { runExample } from '../support/bin.js';
import { outputBlock } from '../support/doc-blocks.js';

let r: ReturnType<typeof runExample>;
beforeAll(() => {
  r = runExample('examples/limits.mjs');
}, 70_000);

describe('examples/limits.mjs', () => {
  it('runs to the end', () => {
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it('shows the memory class the compiler picked: the largest asked for, only by the template rendered', () => {
    expect(r.stdout).toContain("{set_memory memory_limit='256M'}{set_memory var='512M'} -> 512 MB\n");
    expect(r.stdout).toContain('{include file="big.tpl"} -> 128 MB\n');
    expect(r.stdout).toContain('{set_memory memory_limit=$size} -> E_MEMORY_CLASS\n');
  });

  it('meets each limit with its code', () => {
    for (const code of ['E_CPU_TIMEOUT', 'E_OUTPUT_LIMIT', 'E_SLEEP_BUDGET'])
      expect(r.stdout).toContain(`-> ${code} at line 1: `);
    expect(r.stdout).toContain('{sleep ms=5000}done -> "done" in 1 s\n');
  });

  it('prints what docs/limits.md shows', () => {
    expect(r.stdout).toBe(outputBlock('docs/limits.md', 'node examples/limits.mjs').text);
  });
});
