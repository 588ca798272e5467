/**
 * `smartcage site SUBCOMMAND`: local sites (src/site). `init DIR` creates one with sample data.
 * Subcommands are a table, each with its own usage, like the top-level commands.
 */
import { parseArgs, stringOption, UsageError } from '../args.js';
import { EXIT } from '../exit-codes.js';
import { Progress } from '../progress.js';
import { initSite, SiteExistsError } from '../../site/init.js';
import { SiteConfigError } from '../../site/config.js';
import { SAMPLES } from '../../site/sample/index.js';
import type { Command } from '../main.js';
import { siteGet, sitePut } from './site-files.js';
import { siteRestore } from './site-restore.js';

export interface Subcommand {
  name: string;
  summary: string;
  usage: string;
  run(argv: string[]): Promise<number>;
}

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

const SUBCOMMANDS: Subcommand[] = [init, sitePut, siteGet, siteRestore];

function siteHelp(): string {
  return ['SUBCOMMAND ...', '', 'Subcommands:', ...SUBCOMMANDS.map((s) => `  ${s.name.padEnd(7)} ${s.summary}`), '', 'Run `smartcage site SUBCOMMAND --help` for its options.'].join('\n');
}

export const siteCommand: Command = {
  name: 'site',
  summary: 'Create and manage local sites (settings, data and files in one folder).',
  usage: siteHelp(),
  usageFor(argv) {
    const sub = SUBCOMMANDS.find((s) => s.name === argv[0]);
    return sub && `${sub.summary}\n\nUsage: ${sub.usage}\n`;
  },
  async run(argv) {
    const [name, ...rest] = argv;
    const sub = SUBCOMMANDS.find((s) => s.name === name);
    if (!sub) throw new UsageError(name ? `unknown site subcommand "${name}" (${SUBCOMMANDS.map((s) => s.name).join(', ')})` : 'site needs a subcommand');
    return sub.run(rest);
  },
};
