/**
 * The host plugin contract stays a leaf: plugin-contract.ts brings in no value, and no file of
 * src/host-bridge reaches back to itself through its imports, type-only imports included.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

describe('the host plugin contract', () => {
  it('imports types only', () => {
    const text = readFileSync(`${ROOT}src/host-plugins/plugin-contract.ts`, 'utf8');
    expect(text.split('\n').filter((l) => /^import\b/.test(l) && !/^import type\b/.test(l))).toEqual([]);
  });

  it('leaves no import cycle in the host side, type imports included', () => {
    const host = ['src/bridge', 'src/host-api', 'src/host-plugins', 'src/host-adapters'];
    const run = spawnSync(process.execPath, ['scripts/lint/cycles.mjs', '--types', ...host], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(run.stdout + run.stderr).toBe('');
    expect(run.status).toBe(0);
  });
});
