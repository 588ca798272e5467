/**
 * The batch queue backends the contract tests run on: the site store on SQLite and on
 * PostgreSQL (when SMARTCAGE_PG_URL names a server) and BullMQ on Redis (when
 * SMARTCAGE_REDIS_URL names one; .ci/run starts it with scripts/ci/redis.sh). A missing server
 * is reported skipped, never passed; test/site/batches/redis.test.ts fails in CI
 * (SMARTCAGE_REQUIRE_REDIS=1) when Redis is missing. Each queue gets a tenant of its own.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { describe } from 'vitest';
import { PG_URL } from '../../support/backends.js';
import type { QueueTarget } from './targets.js';

export { openTarget, type QueueTarget } from './targets.js';

export const REDIS_URL = process.env.SMARTCAGE_REDIS_URL ?? null;

export interface QueueBackend {
  name: QueueTarget['kind'];
  available: boolean;
}

const QUEUE_BACKENDS: readonly QueueBackend[] = [
  { name: 'sqlite', available: true },
  { name: 'postgres', available: PG_URL !== null },
  { name: 'bullmq', available: REDIS_URL !== null },
];

export function eachQueue(title: string, body: (b: QueueBackend) => void): void {
  for (const b of QUEUE_BACKENDS) (b.available ? describe : describe.skip)(`${title} [${b.name}]`, () => body(b));
}

/** A fresh target on backend `b` (a new tenant; a new SQLite file); `cleanup` removes the folder. */
export function newTarget(b: QueueBackend): { target: QueueTarget; cleanup(): void } {
  const tenant = `q${randomBytes(6).toString('hex')}`;
  if (b.name === 'postgres') return { target: { kind: 'postgres', where: PG_URL!, tenant }, cleanup() {} };
  const dir = mkdtempSync(path.join(tmpdir(), 'smartcage-queue-'));
  const cleanup = () => rmSync(dir, { recursive: true, force: true });
  if (b.name === 'bullmq')
    return { target: { kind: 'bullmq', where: REDIS_URL!, tenant, store: path.join(dir, 'queue.sqlite') }, cleanup };
  return {
    target: { kind: 'sqlite', where: path.join(dir, 'queue.sqlite'), tenant },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}
