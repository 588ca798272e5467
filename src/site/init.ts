/**
 * `smartcage site init DIR`: a new site folder with its settings, a custom function for the
 * `news` endpoint, a page template, a site key, and the sample data of every family (sample/).
 * Refuses a folder that already has a site.json, so it never overwrites a site.
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { SiteConfig } from './config.js';
import { openSite } from './open-site.js';
import { SAMPLES } from './sample/index.js';
import { SAMPLE_FILES } from './sample/files.js';

export interface InitOptions {
  siteKey?: string;
  /** A PostgreSQL URL; absent: SQLite in data/site.sqlite. */
  database?: string | null;
  /** Progress of the sample data, one call per family. */
  onStep?: (done: number, total: number) => void;
}

export class SiteExistsError extends Error {}

/** The folders of a site folder, made by init (and by a restore). */
export const SITE_SUBFOLDERS: readonly string[] = ['data', 'functions', 'batches', 'templates', 'files/user', 'files/ltd', 'files/temp', 'outbox', 'mail'];

export async function initSite(dir: string, opts: InitOptions = {}): Promise<void> {
  if (existsSync(path.join(dir, 'site.json'))) throw new SiteExistsError(`${dir} already holds a site (site.json); nothing was changed`);
  const config: SiteConfig = {
    site_key: opts.siteKey ?? siteKeyFrom(dir),
    timezone: 'Asia/Tokyo',
    lang: 'ja',
    languages: ['ja', 'en'],
    super_users: [1],
    database: opts.database ?? null,
    root_url: 'http://localhost:8080',
    endpoints: [
      { path: 'news', method: 'GET', function: 'news', api_id: 1 },
      { path: 'me', method: 'GET', function: 'me', api_id: 1 },
    ],
    apis: [{ api_id: 1, security: 'none' }],
    batches: [{ slug: 'notify', id: 1 }],
    mail: { verified_domains: ['example.com'], from: 'info@example.com', from_name: 'Demo site', max_per_hour: 200, max_recipients_per_hour: 2000 },
    storage: { type: 'local' },
    integrations: {},
  };
  for (const sub of SITE_SUBFOLDERS) {
    mkdirSync(path.join(dir, sub), { recursive: true });
  }
  writeFileSync(path.join(dir, 'site.json'), JSON.stringify(config, null, 2) + '\n');
  writeFileSync(path.join(dir, 'data', 'site-key'), randomBytes(32), { mode: 0o600 });
  // The data and the key stay out of git; settings, templates and functions go in.
  writeFileSync(path.join(dir, '.gitignore'), 'data/\nsecrets.json\noutbox/\n');
  for (const [file, text] of Object.entries(SAMPLE_FILES)) writeFileSync(path.join(dir, file), text);

  const site = await openSite(dir);
  try {
    let done = 0;
    for (const sample of SAMPLES) {
      await sample(site);
      opts.onStep?.(++done, SAMPLES.length);
    }
  } finally {
    await site.close();
  }
}

/** The folder's name, made a valid site key (`My Site` -> `my-site`). */
export function siteKeyFrom(dir: string): string {
  const key = path.basename(path.resolve(dir)).toLowerCase().replace(/[^a-z0-9_-]+/g, '-').replace(/^[-_]+/, '').slice(0, 63);
  return key === '' ? 'site' : key;
}

/** True when DIR is missing or an empty folder: where init may write. */
export function isEmptyOrMissing(dir: string): boolean {
  return !existsSync(dir) || readdirSync(dir).length === 0;
}
