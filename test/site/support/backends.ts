/**
 * The two store backends every site test runs on: SQLite (always) and PostgreSQL when
 * SMARTCAGE_PG_URL names a server (.ci/run starts one: scripts/ci/postgres.sh). Without it the
 * PostgreSQL half is reported skipped, never passed; test/site/backends.test.ts fails in CI
 * (SMARTCAGE_REQUIRE_PG=1) when the server is missing.
 *
 * Each site gets its own site key, so tests in parallel share one PostgreSQL database as the
 * tenants of a real deployment would, and any row that leaks between tenants shows.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { describe } from 'vitest';
import { initSite } from '../../../src/site/init.js';
import { openSite, type OpenOptions, type Site } from '../../../src/site/open-site.js';

export interface Backend {
  name: 'sqlite' | 'postgres';
  /** The database URL for site.json (null: SQLite in the site folder). */
  url: string | null;
}

export const PG_URL = process.env.SMARTCAGE_PG_URL ?? null;

export const BACKENDS: readonly Backend[] = [
  { name: 'sqlite', url: null },
  { name: 'postgres', url: PG_URL },
];

/** `describe` once per backend; the PostgreSQL one is skipped when there is no server. */
export function eachBackend(title: string, body: (backend: Backend) => void): void {
  for (const b of BACKENDS) {
    const d = b.name === 'postgres' && !PG_URL ? describe.skip : describe;
    d(`${title} [${b.name}]`, () => body(b));
  }
}

export interface SampleOptions {
  siteKey?: string;
  /** Changes site.json after `site init` (integrations, batches...). */
  edit?: (config: Record<string, unknown>) => void;
  /** Files written into the site folder after `site init` (secrets.json...). */
  files?: Record<string, string>;
  open?: OpenOptions;
}

/** A new site folder with the sample data on `backend`, opened; `done()` closes and removes it. */
export async function sampleSite(
  backend: Backend,
  opts: SampleOptions = {},
): Promise<Site & { done(): Promise<void> }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'smartcage-site-'));
  const siteKey = opts.siteKey ?? `t${randomBytes(6).toString('hex')}`;
  await initSite(dir, { siteKey, database: backend.url });
  if (opts.edit) {
    const config = JSON.parse(readFileSync(path.join(dir, 'site.json'), 'utf8')) as Record<string, unknown>;
    opts.edit(config);
    writeFileSync(path.join(dir, 'site.json'), JSON.stringify(config, null, 2));
  }
  for (const [file, text] of Object.entries(opts.files ?? {})) writeFileSync(path.join(dir, file), text);
  const site = await openSite(dir, opts.open);
  return Object.assign(site, {
    async done() {
      await site.close();
      rmSync(dir, { recursive: true, force: true });
    },
  });
}
