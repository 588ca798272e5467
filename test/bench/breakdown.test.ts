/**
 * bench/serve/breakdown.ts on a site made by `smartcage site init`, which has `me` and `news` but
 * not the `floor` endpoint bench/serve.ts adds to its own site: that row is skipped with a note,
 * and the others are measured. The figures are bench/README.md's; they are not asserted here.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { initSite } from '../../src/site/init.js';

const dir = mkdtempSync(path.join(tmpdir(), 'breakdown-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('bench/serve/breakdown.ts', () => {
  it('skips the endpoint a site lacks, in one line, and measures the rest', async () => {
    const site = path.join(dir, 'site');
    await initSite(site);
    const r = spawnSync(
      process.execPath,
      ['--no-node-snapshot', '--import', 'tsx', 'bench/serve/breakdown.ts', site, '--n', '1'],
      { encoding: 'utf8', timeout: 120_000 },
    );
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^floor: skipped, the site has no endpoint of that name/m);
    const rows = [...r.stdout.matchAll(/^(\S.*?) +\d+ µs/gm)].map((m) => m[1]!);
    expect(rows).toEqual([
      'SQL: the 8 queries of news (prepared, rows only)',
      'runEndpoint me (render + host calls + JSON)',
      'serveApi me (the API layer around it)',
      'runEndpoint news (render + host calls + JSON)',
      'serveApi news (the API layer around it)',
    ]);
  }, 150_000);
});
