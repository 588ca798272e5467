/**
 * `smartcage site migrate DIR [--status]`: brings a site's database to this build's schema version
 * (src/site/schema/migrations.ts), or says where it stands. Opening a site migrates it too; this
 * is for operators who upgrade a shared PostgreSQL database before they roll out new nodes.
 */
import path from 'node:path';
import { parseArgs, UsageError } from '../args.js';
import { EXIT } from '../exit-codes.js';
import { readSiteConfig, SiteConfigError } from '../../site/config.js';
import { openDatabase, SQLITE_FILE } from '../../site/db/database.js';
import { migrate, MigrationError, schemaStatus, SCHEMA_VERSION } from '../../site/schema/index.js';
import type { Subcommand } from './site.js';
import { firstLine } from '../caught.js';

const say = (line: string) => process.stderr.write(`smartcage site migrate: ${line}\n`);

export const siteMigrate: Subcommand = {
  name: 'migrate',
  summary: "Bring the site's database to this version's schema (or show where it stands).",
  usage: [
    'smartcage site migrate DIR [--status]',
    '',
    '  DIR        the site folder (its database: data/site.sqlite, or site.json `database`)',
    "  --status   print the database's schema version and the pending migrations; change nothing",
    '',
    'Migrations are numbered and append-only; each pending one runs in one transaction under a lock,',
    'so nodes that open sites of one database at once apply it once. Standard output: one line per',
    'migration applied (or pending, with --status), `VERSION NAME`.',
    '',
    'Exit status: 0 done (also when nothing was pending); 2 wrong usage; 3 the site cannot be read,',
    'its database cannot be reached, a migration failed (nothing of it is kept), or the database',
    'was migrated by a newer smartcage.',
  ].join('\n'),
  async run(argv) {
    const { positionals, values } = parseArgs(argv, { status: { type: 'boolean' } });
    if (positionals.length !== 1) throw new UsageError('site migrate takes exactly one site folder');
    const dir = positionals[0]!;
    let db;
    try {
      const config = readSiteConfig(dir);
      db = await openDatabase({ url: config.database, sqlitePath: path.join(dir, SQLITE_FILE) });
    } catch (e) {
      say(
        e instanceof SiteConfigError ? e.message : `${dir}: the site's database could not be opened (${firstLine(e)})`,
      );
      return EXIT.IO;
    }
    try {
      if (values.status) {
        const { version, pending } = await schemaStatus(db);
        for (const m of pending) process.stdout.write(`${m.version} ${m.name}\n`);
        say(`schema version ${version}; this smartcage's is ${SCHEMA_VERSION}; ${pending.length} pending`);
        return EXIT.OK;
      }
      const report = await migrate(db);
      for (const m of report.applied) process.stdout.write(`${m.version} ${m.name}\n`);
      say(
        report.applied.length === 0
          ? `schema version ${report.version}: nothing to do`
          : `schema version ${report.version}: ${report.applied.length} applied`,
      );
      return EXIT.OK;
    } catch (e) {
      say(e instanceof MigrationError ? e.message : `${dir}: ${firstLine(e)}`);
      return EXIT.IO;
    } finally {
      await db.close();
    }
  },
};
