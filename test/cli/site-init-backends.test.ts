/**
 * `smartcage site init` with --storage and --batch-queue as an operator runs it: a wrong option is
 * a usage error (exit 2) before anything is reached, a backend that cannot be used is one line
 * (exit 3), and either way nothing is left behind.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBuild, runBin } from '../support/bin.js';

const work = mkdtempSync(path.join(tmpdir(), 'smartcage-init-cli-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function deadPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((ok) => s.listen(0, '127.0.0.1', ok));
  const port = (s.address() as AddressInfo).port;
  await new Promise((ok) => s.close(ok));
  return port;
}

describe('site init --storage / --batch-queue', () => {
  beforeAll(() => requireBuild());

  it('refuses a password in --batch-queue and S3 options without --storage (exit 2), writing nothing', () => {
    const dir = path.join(work, 'a');
    const r = runBin(['site', 'init', dir, '--batch-queue', 'redis://:secret@127.0.0.1:6379']);
    expect([r.status, r.stderr]).toEqual([2, expect.stringMatching(/must carry no password/)]);
    expect(r.stderr).not.toContain('secret@');
    const s = runBin(['site', 'init', dir, '--s3-endpoint', 'http://127.0.0.1:9']);
    expect([s.status, s.stderr]).toEqual([2, expect.stringMatching(/--s3-endpoint needs --storage/)]);
    const u = runBin(['site', 'init', dir, '--storage', 'https://bucket/x']);
    expect([u.status, u.stderr]).toEqual([2, expect.stringMatching(/s3:\/\/BUCKET\/PREFIX/)]);
    // A value site.json's schema refuses is named by the option that sets it.
    const d = runBin(['site', 'init', dir, '--database', 'mysql://x']);
    expect([d.status, d.stderr.split('\n')[0]]).toEqual([2, 'smartcage site: --database: must be a postgres:// URL']);
    const e = runBin(['site', 'init', dir, '--secrets-env', 'lower_']);
    expect([e.status, e.stderr.split('\n')[0]]).toEqual([
      2,
      'smartcage site: --secrets-env or --secrets-file: env_prefix must be an upper-case prefix (A-Z, 0-9 and _)',
    ]);
    expect(existsSync(dir)).toBe(false);
  });

  it('a Redis that does not answer, or a secret the source lacks: one line, exit 3, nothing left', async () => {
    const dir = path.join(work, 'b');
    const r = runBin(['site', 'init', dir, '--batch-queue', `redis://127.0.0.1:${await deadPort()}`]);
    expect(r.status).toBe(3);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^smartcage site init: Redis at .* cannot be used .*; nothing was written/);
    const s = runBin([
      'site',
      'init',
      dir,
      '--storage',
      's3://bucket/site',
      '--s3-endpoint',
      `http://127.0.0.1:${await deadPort()}`,
      '--secrets-env',
      'NO_SUCH_PREFIX_',
    ]);
    expect(s.status).toBe(3);
    expect(s.stderr).toMatch(/the secret "S3_ACCESS_KEY_ID" is not in the environment \(NO_SUCH_PREFIX_NAME\)/);
    expect(existsSync(dir)).toBe(false);
  });
});
