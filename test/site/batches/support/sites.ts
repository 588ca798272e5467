/**
 * Sites whose batches run on each queue backend: the site store on SQLite and on PostgreSQL, and
 * BullMQ on Redis (site.json `batch_queue`, the data on SQLite). Skipped, not passed, without
 * their server.
 */
import { describe } from 'vitest';
import { BACKENDS, type Backend } from '../../support/backends.js';
import { siteWith, type SiteChanges, type TestSite } from '../../support/site-with.js';
import { REDIS_URL } from './queues.js';

export interface SiteQueueVariant {
  name: string;
  backend: Backend;
  redis: string | null;
  available: boolean;
}

export const SITE_QUEUES: readonly SiteQueueVariant[] = [
  ...BACKENDS.map((b) => ({ name: b.name, backend: b, redis: null, available: b.name === 'sqlite' || b.url !== null })),
  { name: 'bullmq', backend: BACKENDS[0]!, redis: REDIS_URL, available: REDIS_URL !== null },
];

export function eachSiteQueue(title: string, body: (v: SiteQueueVariant) => void): void {
  for (const v of SITE_QUEUES) (v.available ? describe : describe.skip)(`${title} [${v.name}]`, () => body(v));
}

/** A sample site on `v` with these batches (slug -> template) listed in site.json. */
export function batchSite(
  v: SiteQueueVariant,
  batches: Record<string, string>,
  changes: SiteChanges = {},
): Promise<TestSite> {
  const files: Record<string, string> = { ...changes.files };
  for (const [slug, text] of Object.entries(batches)) files[`batches/${slug}.tpl`] = text;
  return siteWith(v.backend, {
    ...changes,
    files,
    edit(config) {
      const listed = config.batches as { slug: string }[];
      for (const slug of Object.keys(batches)) if (!listed.some((b) => b.slug === slug)) listed.push({ slug });
      if (v.redis) config.batch_queue = v.redis;
      changes.edit?.(config);
    },
  });
}
