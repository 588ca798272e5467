/**
 * S3Files.open(): the probe of conditional writes and what it decides. s3rver ignores If-Match
 * and If-None-Match, so there appends need the shared lock, and without one the store refuses
 * every write with one line (unless it was told it is the only process). Behind
 * conditional-s3-proxy.ts (a server that honours them) appends may rely on them alone.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { parseVirtualPath, type SharedLocks } from '../../../src/index.js';
import { startConditionalProxy, type ConditionalProxy } from '../../support/conditional-s3-proxy.js';
import { startS3, type TestS3 } from '../../support/s3-server.js';

let s3: TestS3;
let proxy: ConditionalProxy;
beforeAll(async () => {
  s3 = await startS3();
  proxy = await startConditionalProxy(s3.endpoint);
});
afterAll(async () => {
  await proxy?.close();
  await s3?.close();
});

/** A stand-in for the site's database locks that counts its use. */
function countingLocks(): SharedLocks & { used: string[][] } {
  const used: string[][] = [];
  return {
    kind: 'test',
    used,
    async withLocks(keys, fn) {
      used.push([...keys]);
      return { ok: true, value: await fn() };
    },
  };
}

const enc = (s: string) => new TextEncoder().encode(s);

it('s3rver ignores conditional writes: without a shared lock writes are refused with one line, and nothing is written', async () => {
  const bucket = await s3.bucket();
  const files = s3.files(bucket, 'p', { singleProcess: false });
  await expect(files.open()).rejects.toThrow(/ignores conditional writes.*no shared lock/);
  await expect(files.appendRecord(parseVirtualPath('/files/user/log'), enc('x\n'))).rejects.toMatchObject({
    code: 'E_FILE_FAILED',
    reason: 'no-coordination',
  });
  // The probe cleans up after itself.
  expect(await s3.keys(bucket)).toEqual([]);
});

it('s3rver with a shared lock: appends go through the lock, without conditions', async () => {
  const bucket = await s3.bucket();
  const locks = countingLocks();
  const files = s3.files(bucket, 'p', { singleProcess: false, locks });
  expect(await files.open()).toEqual({ appends: 'shared-lock', conditionalWrites: false });
  await files.appendRecord(parseVirtualPath('/files/user/log'), enc('a\n'));
  await files.appendRecord(parseVirtualPath('/files/user/log'), enc('b\n'));
  expect(await s3.rawGet(bucket, 'p/files/user/log')).toBe('a\nb\n');
  expect(locks.used).toEqual([[`s3:${bucket}/p/files/user/log`], [`s3:${bucket}/p/files/user/log`]]);
  // singleProcess: the process's own lock, said so.
  expect(await s3.files(bucket, 'p').open()).toEqual({ appends: 'process-lock', conditionalWrites: false });
});

it('a server that honours them: appends rely on conditional writes, and keep them under a shared lock', async () => {
  const bucket = await s3.bucket();
  const files = s3.files(bucket, 'c', { endpoint: proxy.endpoint, singleProcess: false });
  expect(await files.open()).toEqual({ appends: 'conditional', conditionalWrites: true });
  const refusedByProbe = proxy.refused();
  expect(refusedByProbe).toBe(2);
  await files.appendRecord(parseVirtualPath('/files/user/log'), enc('a\n'));
  await files.appendRecord(parseVirtualPath('/files/user/log'), enc('b\n'));
  expect(await s3.rawGet(bucket, 'c/files/user/log')).toBe('a\nb\n');
  expect(proxy.refused()).toBe(refusedByProbe);
  // With a shared lock as well, the conditions stay on as a safety net.
  const both = s3.files(bucket, 'c', { endpoint: proxy.endpoint, singleProcess: false, locks: countingLocks() });
  expect(await both.open()).toEqual({ appends: 'shared-lock', conditionalWrites: true });
  await both.appendRecord(parseVirtualPath('/files/user/log'), enc('c\n'));
  expect(await s3.rawGet(bucket, 'c/files/user/log')).toBe('a\nb\nc\n');
});
