/**
 * Memory of the hostile corpus: test/support/archives/corpus-rss.ts runs every archive through
 * {unzip} in a process of its own and reports its resident memory. The corpus holds a 1 GiB bomb,
 * one that lies about its size and 100,000 entries; the growth over the run must stay far below
 * them. For scale, one honest 48 MiB archive near the caps: its growth is what the caps allow
 * (the archive read, twice while the store concatenates its chunks, and one entry), never more.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { HOSTILE_CORPUS } from '../../support/archives/hostile-corpus.js';

const SCRIPT = fileURLToPath(new URL('../../support/archives/corpus-rss.ts', import.meta.url));

it.runIf(process.platform === 'linux')(
  'runs the hostile corpus with the resident memory bounded by the caps, not by the archives',
  () => {
    const r = spawnSync(process.execPath, ['--no-node-snapshot', '--expose-gc', '--import', 'tsx', SCRIPT], {
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(r.status, r.stderr).toBe(0);
    const m = JSON.parse(r.stdout.trim().split('\n').at(-1)!) as {
      baselineMiB: number;
      peakMiB: number;
      largeBaselineMiB: number;
      largePeakMiB: number;
      outcomes: Record<string, string>;
    };
    console.log(
      `hostile corpus: ${HOSTILE_CORPUS.length} archives, resident ${m.baselineMiB} MiB after setup, peak ${m.peakMiB} MiB during the run (+${m.peakMiB - m.baselineMiB} MiB); one honest 48 MiB archive: ${m.largeBaselineMiB} -> ${m.largePeakMiB} MiB (+${m.largePeakMiB - m.largeBaselineMiB} MiB)`,
    );
    for (const c of HOSTILE_CORPUS) expect(m.outcomes[c.id], c.id).toBe('code' in c.expect ? c.expect.code : 'ok');
    expect(m.outcomes.large).toBe('ok');
    expect(m.peakMiB - m.baselineMiB).toBeLessThan(64);
    expect(m.largePeakMiB - m.largeBaselineMiB).toBeLessThan(4 * 64);
  },
);
