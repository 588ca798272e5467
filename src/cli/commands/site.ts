/**
 * `smartcage site SUBCOMMAND`: local sites (src/site). `init DIR` creates one with sample data.
 * Subcommands are a table, each with its own usage, like the top-level commands.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs, stringOption, UsageError } from '../args.js';
import { commandOf, type Subcommand } from './subcommands.js';
import { EXIT } from '../exit-codes.js';
import { Progress } from '../progress.js';
import { initSite, SiteExistsError, SiteInitError, siteKeyFrom } from '../../site/init.js';
import {
  parseSiteConfig,
  readSiteConfig,
  SiteConfigError,
  type S3StorageConfig,
  type SecretsSource,
  type SiteConfig,
} from '../../site/config.js';
import { BackendProblem, parseStorageUrl } from '../../site/init-backends.js';
import { SAMPLES } from '../../site/sample/index.js';
import type { Command } from '../main.js';
import { siteGet, sitePut } from './site-files.js';
import { siteOutbox } from './site-outbox.js';
import { siteRestore } from './site-restore.js';
import { siteMigrate } from './site-migrate.js';
import { siteLs } from './site-ls.js';
import { firstLine } from '../caught.js';

export type { Subcommand };

const init: Subcommand = {
  name: 'init',
  summary: 'Create a site folder with settings and bilingual sample data.',
  usage: [
    'smartcage site init DIR [--site-key KEY] [--database URL] [--storage s3://BUCKET/PREFIX ...]',
    '                        [--batch-queue redis://HOST:PORT[/DB] [--redis-password-secret NAME]]',
    '                        [--secrets-env PREFIX | --secrets-file PATH]',
    '',
    '  DIR              folder to create; one that holds the site this command would make (same',
    '                   site key, database, storage and queue) is kept as it is (exit 0), any other',
    '                   site is refused',
    '  --site-key KEY   the site key (default: the folder name, lower case)',
    '  --database URL   keep the data in PostgreSQL (postgres://...) instead of DIR/data/site.sqlite;',
    '                   it is reached and checked first: a site key that already has rows there is refused',
    '  --storage s3://BUCKET/PREFIX  keep the files in an S3-compatible bucket below PREFIX instead of',
    '                   DIR/files; the prefix must hold no site files yet. With:',
    '    --s3-endpoint URL       a compatible server (default: AWS by region); path-style requests',
    '    --s3-region REGION      default us-east-1',
    '    --s3-key-secret NAME    the secret holding the access key id (default S3_ACCESS_KEY_ID)',
    '    --s3-secret-secret NAME the secret holding the secret key (default S3_SECRET_ACCESS_KEY)',
    '  --batch-queue redis://HOST:PORT[/DB]  run batches through Redis (BullMQ); no password in the URL:',
    '    --redis-password-secret NAME  the secret holding the Redis password',
    '  --secrets-env PREFIX   read the secrets from environment variables PREFIX<NAME>',
    '  --secrets-file PATH    read them from a JSON file of secrets.json shape (a volume on every node)',
    '                   (default: DIR/secrets.json, which may be put there before init)',
    '',
    'site.json names the secrets, never their values. Every backend is reached and checked first.',
    '',
    'Exit status: 0 created; 2 wrong usage; 3 DIR holds a site, a backend cannot be used or holds',
    'the key, or a step failed. On failure nothing is left behind: run the command again.',
  ].join('\n'),
  async run(argv) {
    const { positionals, values } = parseArgs(argv, {
      'site-key': { type: 'string' },
      database: { type: 'string' },
      storage: { type: 'string' },
      's3-endpoint': { type: 'string' },
      's3-region': { type: 'string' },
      's3-key-secret': { type: 'string' },
      's3-secret-secret': { type: 'string' },
      'batch-queue': { type: 'string' },
      'redis-password-secret': { type: 'string' },
      'secrets-env': { type: 'string' },
      'secrets-file': { type: 'string' },
    });
    if (positionals.length !== 1) throw new UsageError('site init takes exactly one folder');
    const dir = positionals[0]!;
    const siteKey = stringOption(values, 'site-key');
    const database = stringOption(values, 'database') ?? null;
    const backends = initBackends(values, database);
    // Running the README's first command again: the site it made is kept, and the render after it runs (D146).
    const kept = sameSite(dir, siteKey ?? siteKeyFrom(dir), backends);
    if (kept !== null) {
      process.stderr.write(`${dir} already holds this site (${kept}); kept as it is, nothing was changed\n`);
      return EXIT.OK;
    }
    const progress = new Progress('sample data', SAMPLES.length);
    try {
      await initSite(dir, {
        siteKey,
        database,
        storage: backends.storage,
        batchQueue: backends.batch_queue,
        batchQueuePasswordSecret: backends.batch_queue_password_secret,
        secrets: backends.secrets,
        onStep: () => progress.tick(),
      });
    } catch (e) {
      progress.done();
      // Whatever the cause, one line: init removed what it had made, so the same command can run again.
      const hint =
        e instanceof SiteExistsError ? ' (another site: choose another folder, or remove this one to start over)' : '';
      const message =
        e instanceof SiteExistsError || e instanceof SiteConfigError || e instanceof SiteInitError
          ? e.message
          : `${dir}: ${firstLine(e)}; nothing was left behind`;
      process.stderr.write(`smartcage site init: ${message}${hint}\n`);
      return EXIT.IO;
    }
    progress.done();
    process.stderr.write(`site created in ${dir}; try: smartcage render examples/news-page.tpl --site ${dir}\n`);
    return EXIT.OK;
  },
};

/** The backends of the site.json init writes, from the options; checked as site.json is (a wrong one: exit 2). */
type InitBackends = Pick<SiteConfig, 'database' | 'batch_queue' | 'batch_queue_password_secret' | 'secrets'> & {
  storage: S3StorageConfig | null;
};

function initBackends(values: Parameters<typeof stringOption>[0], database: string | null): InitBackends {
  const opt = (name: string) => stringOption(values, name);
  const needs = (name: string, other: string) => {
    if (opt(name) !== undefined && opt(other) === undefined) throw new UsageError(`--${name} needs --${other}`);
  };
  for (const s3 of ['s3-endpoint', 's3-region', 's3-key-secret', 's3-secret-secret']) needs(s3, 'storage');
  needs('redis-password-secret', 'batch-queue');
  if (opt('secrets-env') !== undefined && opt('secrets-file') !== undefined)
    throw new UsageError('give --secrets-env or --secrets-file, not both');
  let storage: S3StorageConfig | null = null;
  const url = opt('storage');
  if (url !== undefined) {
    let where: { bucket: string; prefix?: string };
    try {
      where = parseStorageUrl(url);
    } catch (e) {
      if (e instanceof BackendProblem) throw new UsageError(e.message);
      throw e;
    }
    const endpoint = opt('s3-endpoint');
    storage = {
      type: 's3',
      ...(endpoint !== undefined ? { endpoint, force_path_style: true } : {}),
      region: opt('s3-region') ?? 'us-east-1',
      ...where,
      access_key_secret: opt('s3-key-secret') ?? 'S3_ACCESS_KEY_ID',
      secret_key_secret: opt('s3-secret-secret') ?? 'S3_SECRET_ACCESS_KEY',
    };
  }
  const queue = opt('batch-queue');
  if (queue !== undefined && URL.canParse(queue) && new URL(queue).password)
    throw new UsageError(
      '--batch-queue must carry no password: put it in a secret and name it with --redis-password-secret',
    );
  const secretsEnv = opt('secrets-env');
  const secretsFile = opt('secrets-file');
  const secrets: SecretsSource | undefined =
    secretsEnv !== undefined
      ? { env_prefix: secretsEnv }
      : secretsFile !== undefined
        ? { file: secretsFile }
        : undefined;
  const backends: InitBackends = {
    database,
    storage,
    batch_queue: queue ?? null,
    ...(opt('redis-password-secret') !== undefined
      ? { batch_queue_password_secret: opt('redis-password-secret') }
      : {}),
    ...(secrets ? { secrets } : {}),
  };
  // The values as site.json would hold them, checked by site.json's own rules: one place says what is valid.
  try {
    parseSiteConfig(
      {
        site_key: 'check',
        timezone: 'UTC',
        lang: 'en',
        ...backends,
        storage: storage ?? { type: 'local' },
      },
      'the options',
    );
  } catch (e) {
    if (e instanceof SiteConfigError) throw new UsageError(optionProblem(e.message));
    throw e;
  }
  return backends;
}

/** A problem of site.json (`the options: /database: must be ...`) as one of the option that sets the key. */
function optionProblem(message: string): string {
  const names: Record<string, string> = {
    database: '--database',
    storage: '--storage and its --s3-* options',
    batch_queue: '--batch-queue',
    batch_queue_password_secret: '--redis-password-secret',
    secrets: '--secrets-env or --secrets-file',
  };
  const m = /^the options: \/(\w+)(\S*): (.*)$/.exec(message);
  const option = m ? names[m[1]!] : undefined;
  return m && option ? `${option}: ${m[2] ? `${m[2].slice(1)} ` : ''}${m[3]}` : message;
}

/**
 * What `site init` would make is already in DIR: a site.json with the same site key and
 * backends (no database: SQLite in the folder) whose data was initialised (data/site-key).
 * Answers how to name it, or null (no site, or another one, which init refuses to touch).
 */
function sameSite(dir: string, siteKey: string, backends: InitBackends): string | null {
  if (!existsSync(path.join(dir, 'site.json')) || !existsSync(path.join(dir, 'data', 'site-key'))) return null;
  const database = backends.database ?? null;
  try {
    const config = readSiteConfig(dir);
    const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
    if (
      config.site_key !== siteKey ||
      (config.database ?? null) !== database ||
      !same(config.storage.type === 's3' ? config.storage : null, backends.storage) ||
      (config.batch_queue ?? null) !== (backends.batch_queue ?? null)
    )
      return null;
    return `site key ${config.site_key}, ${database === null ? 'data in data/site.sqlite' : 'data in PostgreSQL'}`;
  } catch (e) {
    if (e instanceof SiteConfigError) return null;
    throw e;
  }
}

export const siteCommand: Command = commandOf(
  'site',
  'Create and manage local sites (settings, data and files in one folder).',
  [init, siteLs, sitePut, siteGet, siteOutbox, siteRestore, siteMigrate],
);
