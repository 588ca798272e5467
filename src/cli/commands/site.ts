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
import { readSiteConfig, SiteConfigError } from '../../site/config.js';
import { SAMPLES } from '../../site/sample/index.js';
import type { Command } from '../main.js';
import { siteGet, sitePut } from './site-files.js';
import { siteOutbox } from './site-outbox.js';
import { siteRestore } from './site-restore.js';
import { siteMigrate } from './site-migrate.js';
import { siteLs } from './site-ls.js';

export type { Subcommand };

const init: Subcommand = {
  name: 'init',
  summary: 'Create a site folder with settings and bilingual sample data.',
  usage: [
    'smartcage site init DIR [--site-key KEY] [--database URL]',
    '',
    '  DIR              folder to create; one that holds the site this command would make (same',
    '                   site key and database) is kept as it is (exit 0), any other site is refused',
    '  --site-key KEY   the site key (default: the folder name, lower case)',
    '  --database URL   keep the data in PostgreSQL (postgres://...) instead of DIR/data/site.sqlite;',
    '                   it is reached and checked first: a site key that already has rows there is refused',
    '',
    'Exit status: 0 created; 2 wrong usage; 3 DIR holds a site, the database cannot be used or',
    'holds the key, or a step failed. On failure nothing is left behind: run the command again.',
  ].join('\n'),
  async run(argv) {
    const { positionals, values } = parseArgs(argv, { 'site-key': { type: 'string' }, database: { type: 'string' } });
    if (positionals.length !== 1) throw new UsageError('site init takes exactly one folder');
    const dir = positionals[0]!;
    const siteKey = stringOption(values, 'site-key');
    const database = stringOption(values, 'database') ?? null;
    // Running the README's first command again: the site it made is kept, and the render after it runs (D146).
    const kept = sameSite(dir, siteKey ?? siteKeyFrom(dir), database);
    if (kept !== null) {
      process.stderr.write(`${dir} already holds this site (${kept}); kept as it is, nothing was changed\n`);
      return EXIT.OK;
    }
    const progress = new Progress('sample data', SAMPLES.length);
    try {
      await initSite(dir, {
        siteKey,
        database,
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
          : `${dir}: ${(e as Error).message.split('\n')[0]}; nothing was left behind`;
      process.stderr.write(`smartcage site init: ${message}${hint}\n`);
      return EXIT.IO;
    }
    progress.done();
    process.stderr.write(`site created in ${dir}; try: smartcage render examples/news-page.tpl --site ${dir}\n`);
    return EXIT.OK;
  },
};

/**
 * What `site init` would make is already in DIR: a site.json with the same site key and
 * database (none: SQLite in the folder) whose data was initialised (data/site-key). Answers how
 * to name it, or null (no site, or another one, which init refuses to touch).
 */
function sameSite(dir: string, siteKey: string, database: string | null): string | null {
  if (!existsSync(path.join(dir, 'site.json')) || !existsSync(path.join(dir, 'data', 'site-key'))) return null;
  try {
    const config = readSiteConfig(dir);
    if (config.site_key !== siteKey || (config.database ?? null) !== database) return null;
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
