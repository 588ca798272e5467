/**
 * `smartcage site SUBCOMMAND`: local sites (src/site). `init DIR` creates one with sample data.
 * Subcommands are a table, each with its own usage, like the top-level commands.
 */
import { parseArgs, stringOption, UsageError } from '../args.js';
import { commandOf, type Subcommand } from './subcommands.js';
import { EXIT } from '../exit-codes.js';
import { Progress } from '../progress.js';
import { initSite, SiteExistsError } from '../../site/init.js';
import { SiteConfigError } from '../../site/config.js';
import { SAMPLES } from '../../site/sample/index.js';
import type { Command } from '../main.js';
import { siteGet, sitePut } from './site-files.js';
import { siteOutbox } from './site-outbox.js';
import { siteRestore } from './site-restore.js';
import { siteLs } from './site-ls.js';

export type { Subcommand };

const init: Subcommand = {
  name: 'init',
  summary: 'Create a site folder with settings and bilingual sample data.',
  usage: [
    'smartcage site init DIR [--site-key KEY] [--database URL]',
    '',
    '  DIR              folder to create (it must not hold a site.json yet)',
    '  --site-key KEY   the site key (default: the folder name, lower case)',
    '  --database URL   keep the data in PostgreSQL (postgres://...) instead of DIR/data/site.sqlite',
  ].join('\n'),
  async run(argv) {
    const { positionals, values } = parseArgs(argv, { 'site-key': { type: 'string' }, database: { type: 'string' } });
    if (positionals.length !== 1) throw new UsageError('site init takes exactly one folder');
    const dir = positionals[0]!;
    const progress = new Progress('sample data', SAMPLES.length);
    try {
      await initSite(dir, {
        siteKey: stringOption(values, 'site-key'),
        database: stringOption(values, 'database') ?? null,
        onStep: () => progress.tick(),
      });
    } catch (e) {
      progress.done();
      if (e instanceof SiteExistsError || e instanceof SiteConfigError) {
        process.stderr.write(`smartcage site init: ${e.message}\n`);
        return EXIT.IO;
      }
      throw e;
    }
    progress.done();
    process.stderr.write(`site created in ${dir}; try: smartcage render examples/news-page.tpl --site ${dir}\n`);
    return EXIT.OK;
  },
};

export const siteCommand: Command = commandOf('site', 'Create and manage local sites (settings, data and files in one folder).', [init, siteLs, sitePut, siteGet, siteOutbox, siteRestore]);
