/**
 * Per-path async locks, process-wide: keyed by real root and canonical virtual path, so every
 * TenantFiles of the same root in this process shares them (appends from two instances do not
 * interleave, a replacement and a move of one file do not cross).
 */

import type { VirtualPath } from './virtual-path.js';

const locks = new Map<string, Promise<void>>();

/** Run `fn` holding the locks of `paths` below `realRoot`, taken in sorted order so two callers never deadlock. */
export async function withPathLocks<T>(
  realRoot: string,
  paths: readonly VirtualPath[],
  fn: () => Promise<T>,
): Promise<T> {
  const sorted = [...new Set(paths.map((p) => `${realRoot}\0${p.text}`))].sort();
  const releases: (() => void)[] = [];
  try {
    for (const key of sorted) {
      const prev = locks.get(key) ?? Promise.resolve();
      let release!: () => void;
      const mine = new Promise<void>((r) => (release = r));
      const chained = prev.then(() => mine);
      locks.set(key, chained);
      releases.push(() => {
        release();
        if (locks.get(key) === chained) locks.delete(key);
      });
      await prev;
    }
    return await fn();
  } finally {
    for (const r of releases.reverse()) r();
  }
}
