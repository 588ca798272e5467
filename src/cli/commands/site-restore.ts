/** `smartcage site restore DIR BACKUP`: a backup made by {backup} restored into an empty folder. */
import { parseArgs, positiveIntOption, stringOption, UsageError } from '../args.js';
import { EXIT } from '../exit-codes.js';
import { firstLine, restoreSite } from '../../site/backups/restore.js';
import { backupKeyFromEnv, readBackupKeyFile } from '../../site/backups/sealed.js';
import { MAX_BACKUP_ENTRIES } from '../../site/backups/layout.js';
import type { Subcommand } from './site.js';

export const siteRestore: Subcommand = {
  name: 'restore',
  summary: 'Restore a backup ({backup}) into an empty folder.',
  usage: [
    'smartcage site restore DIR BACKUP [--database URL] [--backup-key-file FILE] [--max-entries N]',
    '',
    '  DIR                     an empty or new folder: the restored site',
    '  BACKUP                  the archive, e.g. OLD_SITE/data/backups/<backup_id>.tar',
    '  --database URL          the PostgreSQL database to restore into (or SMARTCAGE_RESTORE_DATABASE);',
    "                          default: SQLite in DIR/data/site.sqlite. The backup's own site.json never",
    '                          chooses it, nor the storage or batch queue (they become local).',
    "  --backup-key-file FILE  the key the backup's secrets were sealed with (or SMARTCAGE_BACKUP_KEY,",
    '                          SMARTCAGE_BACKUP_KEY_FILE): 32 bytes, raw, hex or base64',
    `  --max-entries N         entries the backup may hold (default ${MAX_BACKUP_ENTRIES})`,
    '',
    "The whole archive is checked before anything is written: every entry's name, the manifest's",
    'shape, its entry count and sizes, every SHA-256, and that the manifest and site.json name the',
    'same site. A site key the target database already knows, in any table, is refused.',
    '',
    'Exit status: 0 restored; 2 wrong usage; 3 DIR not empty, the backup damaged or refused.',
  ].join('\n'),
  async run(argv) {
    const { positionals, values } = parseArgs(argv, {
      database: { type: 'string' },
      'backup-key-file': { type: 'string' },
      'max-entries': { type: 'string' },
    });
    const [dir, archive, ...extra] = positionals;
    if (archive === undefined || extra.length > 0)
      throw new UsageError('site restore takes a folder and a backup archive');
    const maxEntries = positiveIntOption(values, 'max-entries');
    try {
      const keyFile = stringOption(values, 'backup-key-file');
      const database = stringOption(values, 'database') ?? (process.env.SMARTCAGE_RESTORE_DATABASE || null);
      const restored = await restoreSite(dir, archive, {
        database,
        backupKey: keyFile ? readBackupKeyFile(keyFile) : backupKeyFromEnv(),
        maxEntries,
      });
      process.stderr.write(`site ${restored.siteKey} restored into ${dir}\n`);
      for (const f of restored.reset)
        process.stderr.write(
          `  the backup's site.json set "${f}": the restored site has the local default; set it again if it is yours\n`,
        );
      for (const f of restored.missing) {
        process.stderr.write(
          f === 'secrets.json'
            ? `  the backup holds no secrets.json (it was made without a backup key): write ${dir}/secrets.json again\n`
            : `  the backup holds no data/site-key (it was made without a backup key): a new one was made; what {rcms_encrypt} sealed and the file links signed with the old one no longer open\n`,
        );
      }
      return EXIT.OK;
    } catch (e) {
      // Every failure is one line: a damaged archive, a refusal, a database's own error.
      process.stderr.write(`smartcage site restore: ${firstLine(e)}\n`);
      return EXIT.IO;
    }
  },
};
