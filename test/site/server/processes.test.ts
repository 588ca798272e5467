/** The restart backoff of `serve --processes` (src/site/server/processes.ts): 100 ms doubling to 10 s, reset after 30 s up. */
import { describe, expect, it } from 'vitest';
import { Backoff, HEALTHY_AFTER_MS, processCount } from '../../../src/site/server/processes.js';

describe('Backoff', () => {
  it('doubles from 100 ms to at most 10 s while children die young, and starts over after one stayed up 30 s', () => {
    const b = new Backoff();
    const quick = Array.from({ length: 10 }, () => b.next(50));
    expect(quick).toEqual([100, 200, 400, 800, 1600, 3200, 6400, 10_000, 10_000, 10_000]);
    expect(b.next(HEALTHY_AFTER_MS)).toBe(100);
    expect(b.next(10)).toBe(200);
  });
});

describe('processCount', () => {
  it('defaults to one per core with --sites and 1 otherwise; takes a number or auto', () => {
    expect(processCount(undefined, false)).toBe(1);
    expect(processCount(3, false)).toBe(3);
    expect(processCount('auto', false)).toBeGreaterThanOrEqual(1);
    expect(processCount(undefined, true)).toBe(processCount('auto', false));
  });
});
