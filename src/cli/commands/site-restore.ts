/** `smartcage site restore DIR BACKUP`: a backup made by {backup} restored into an empty folder. */
import { parseArgs, UsageError } from '../args.js';
import { EXIT } from '../exit-codes.js';
import { restoreSite, RestoreError } from '../../site/backups/restore.js';
import { SiteConfigError } from '../../site/config.js';
import type { Subcommand } from './site.js';

export const siteRestore: Subcommand = {
  name: 'restore',
  summary: 'Restore a backup ({backup}) into an empty folder.',
  usage: [
    'smartcage site restore DIR BACKUP',
    '',
    '  DIR      an empty or new folder: the restored site',
    '  BACKUP   the archive, e.g. OLD_SITE/data/backups/<backup_id>.tar',
    '',
    'Every entry\'s SHA-256 is checked against the manifest before anything is written. The site',
    'keeps its site key and database setting (site.json); a database that already holds rows of',
    'that site key is refused.',
    '',
    'Exit status: 0 restored; 2 wrong usage; 3 DIR not empty, the backup damaged or refused.',
  ].join('\n'),
  async run(argv) {
    const { positionals } = parseArgs(argv, {});
    if (positionals.length !== 2) throw new UsageError('site restore takes a folder and a backup archive');
    const [dir, archive] = positionals as [string, string];
    try {
      const key = await restoreSite(dir, archive);
      process.stderr.write(`site ${key} restored into ${dir}\n`);
      return EXIT.OK;
    } catch (e) {
      if (e instanceof RestoreError || e instanceof SiteConfigError) {
        process.stderr.write(`smartcage site restore: ${e.message}\n`);
        return EXIT.IO;
      }
      throw e;
    }
  },
};
