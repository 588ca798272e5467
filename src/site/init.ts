/**
 * `smartcage site init DIR`: a new site folder with its settings, a custom function for the
 * `news` endpoint, a page template, a site key, and the sample data of every family (sample/).
 * Refuses a folder that already has a site.json, so it never overwrites a site.
 *
 * All or nothing: a PostgreSQL database is reached, migrated and checked for the site key before
 * anything is written (a key that already has rows there belongs to another site, which the new
 * folder would silently share); so are an S3 bucket (its prefix must hold no site's files) and a
 * Redis batch queue (no queue of the key), with their credentials read by name from the secrets
 * source (init-backends.ts). A failure after that removes what init made, in the folder, the
 * database and the bucket, so the same command can simply be run again. The sample files under
 * files/ are written through the site's store: into the bucket for an S3 site.
 */
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { S3StorageConfig, SecretsSource } from './config.js';
import { SITE_SCHEMA_URL, type SiteJson } from './site-json.generated.js';
import { openSite } from './open-site.js';
import { SAMPLES } from './sample/index.js';
import { SAMPLE_FILES } from './sample/files.js';
import { openDatabase } from './db/database.js';
import { migrate } from './schema/index.js';
import { deleteTenantRows, tableWithTenant } from './db/tenant-rows.js';
import { BackendProblem, checkBucket, checkRedis, emptyBucketPrefix, namedSecrets } from './init-backends.js';
import { withPassword } from './batches/queue-url.js';
import { parseVirtualPath, SITE_DEFAULTS } from '../index.js';

export interface InitOptions {
  siteKey?: string;
  /** A PostgreSQL URL; absent: SQLite in data/site.sqlite. */
  database?: string | null;
  /** An S3-compatible bucket for the files (its keys named as secrets); absent: the folder's files/. */
  storage?: S3StorageConfig | null;
  /** A redis:// URL without a password for the batch queue (BullMQ); absent: the site's database. */
  batchQueue?: string | null;
  /** The secret holding the Redis password, if it needs one. */
  batchQueuePasswordSecret?: string;
  /** Where the named secrets come from (site.json `secrets`); absent: secrets.json in the folder. */
  secrets?: SecretsSource;
  /** Progress of the sample data, one call per family. */
  onStep?: (done: number, total: number) => void;
}

export class SiteExistsError extends Error {}
/** Init could not make the site; the message is one line that says what to fix, and nothing was left behind. */
export class SiteInitError extends Error {}

/** A database URL as it may be shown: without its password. */
function shown(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'the database URL';
  }
}

const firstLine = (e: unknown) => (e instanceof Error ? e.message : String(e)).split('\n')[0];

/** Reaches and migrates the database and checks that `key` is free there; writes nothing of the site. */
async function checkDatabase(url: string, key: string): Promise<void> {
  let db;
  try {
    db = await openDatabase({ url, sqlitePath: '' });
    await migrate(db);
  } catch (e) {
    await db?.close();
    throw new SiteInitError(
      `the database ${shown(url)} cannot be used (${firstLine(e)}): start it or fix --database; nothing was written`,
    );
  }
  try {
    const table = await tableWithTenant(db, key);
    if (table)
      throw new SiteInitError(
        `the database already holds a site with the key "${key}" (rows in ${table}): choose another --site-key; nothing was written`,
      );
  } finally {
    await db.close();
  }
}

/** Everything init is to use besides the database answers, and holds nothing of another site; writes nothing. */
async function checkOthers(dir: string, key: string, opts: InitOptions): Promise<void> {
  try {
    if (opts.storage) await checkBucket(dir, opts.storage, opts.secrets);
    if (opts.batchQueue) {
      if (!URL.canParse(opts.batchQueue) || !opts.batchQueue.startsWith('redis://'))
        throw new BackendProblem(`--batch-queue must be a redis:// URL`);
      if (new URL(opts.batchQueue).password)
        throw new BackendProblem(
          '--batch-queue must carry no password: put it in a secret and name it with --redis-password-secret',
        );
      const [password] = opts.batchQueuePasswordSecret
        ? namedSecrets(dir, opts.secrets, [opts.batchQueuePasswordSecret])
        : [];
      const url = password === undefined ? opts.batchQueue : withPassword(opts.batchQueue, password);
      await checkRedis(url, opts.batchQueue, key);
    }
  } catch (e) {
    if (e instanceof BackendProblem) throw new SiteInitError(`${e.message}; nothing was written`);
    throw e;
  }
}

/**
 * Removes what a failed init made: the bucket's keys below the prefix (first: their credentials
 * may be in the folder), the folder if init created it, else the entries it added; the key's rows
 * in a shared database.
 */
async function undo(dir: string, before: readonly string[] | null, opts: InitOptions, key: string): Promise<void> {
  const database = opts.database ?? null;
  if (opts.storage) await emptyBucketPrefix(dir, opts.storage, opts.secrets);
  if (before === null) rmSync(dir, { recursive: true, force: true });
  else
    for (const name of readdirSync(dir))
      if (!before.includes(name)) rmSync(path.join(dir, name), { recursive: true, force: true });
  if (!database) return;
  const db = await openDatabase({ url: database, sqlitePath: '' });
  try {
    await deleteTenantRows(db, key);
  } finally {
    await db.close();
  }
}

/** The folders of a site folder, made by init (and by a restore). */
export const SITE_SUBFOLDERS: readonly string[] = [
  'data',
  'functions',
  'batches',
  'templates',
  'files/user',
  'files/ltd',
  'files/temp',
  'outbox',
  'mail',
];

export async function initSite(dir: string, opts: InitOptions = {}): Promise<void> {
  if (existsSync(path.join(dir, 'site.json')))
    throw new SiteExistsError(`${dir} already holds a site (site.json); nothing was changed`);
  const key = opts.siteKey ?? siteKeyFrom(dir);
  if (opts.database) await checkDatabase(opts.database, key);
  await checkOthers(dir, key, opts);
  const before = existsSync(dir) ? readdirSync(dir) : null;
  try {
    await makeSite(dir, key, opts);
  } catch (e) {
    try {
      await undo(dir, before, opts, key);
    } catch (u) {
      throw new SiteInitError(`${firstLine(e)}; and what init made could not all be removed (${firstLine(u)})`);
    }
    throw e;
  }
}

async function makeSite(dir: string, key: string, opts: InitOptions): Promise<void> {
  // As a person would write it: `$schema` first, so an editor completes and checks the rest.
  const config: SiteJson = {
    $schema: SITE_SCHEMA_URL,
    site_key: key,
    timezone: SITE_DEFAULTS.timezone,
    lang: SITE_DEFAULTS.lang,
    // The languages the sample content is written in.
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
    mail: {
      verified_domains: ['example.com'],
      from: 'info@example.com',
      from_name: 'Demo site',
      max_per_hour: 200,
      max_recipients_per_hour: 2000,
    },
    storage: opts.storage ?? { type: 'local' },
    ...(opts.batchQueue ? { batch_queue: opts.batchQueue } : {}),
    ...(opts.batchQueue && opts.batchQueuePasswordSecret
      ? { batch_queue_password_secret: opts.batchQueuePasswordSecret }
      : {}),
    integrations: {},
    ...(opts.secrets ? { secrets: opts.secrets } : {}),
  };
  for (const sub of SITE_SUBFOLDERS) {
    mkdirSync(path.join(dir, sub), { recursive: true });
  }
  writeFileSync(path.join(dir, 'site.json'), JSON.stringify(config, null, 2) + '\n');
  writeFileSync(path.join(dir, 'data', 'site-key'), randomBytes(32), { mode: 0o600 });
  // The data and the key stay out of git; settings, templates and functions go in.
  writeFileSync(path.join(dir, '.gitignore'), 'data/\nsecrets.json\noutbox/\n');
  const [stored, folder] = partition(Object.entries(SAMPLE_FILES), ([file]) => file.startsWith('files/'));
  for (const [file, text] of folder) writeFileSync(path.join(dir, file), text);

  const site = await openSite(dir);
  try {
    // The site's files go where it keeps them: files/ or its bucket.
    const store = site.host.files!;
    for (const [file, text] of stored)
      await store.writeAtomic(parseVirtualPath(`/${file}`), new TextEncoder().encode(text));
    let done = 0;
    for (const sample of SAMPLES) {
      await sample(site);
      opts.onStep?.(++done, SAMPLES.length);
    }
  } finally {
    await site.close();
  }
}

function partition<T>(items: readonly T[], test: (t: T) => boolean): [T[], T[]] {
  return [items.filter(test), items.filter((t) => !test(t))];
}

/** The folder's name, made a valid site key (`My Site` -> `my-site`). */
export function siteKeyFrom(dir: string): string {
  const key = path
    .basename(path.resolve(dir))
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^[-_]+/, '')
    .slice(0, 63);
  return key === '' ? 'site' : key;
}

/** True when DIR is missing or an empty folder: where init may write. */
export function isEmptyOrMissing(dir: string): boolean {
  return !existsSync(dir) || readdirSync(dir).length === 0;
}
