/**
 * `smartcage site outbox DIR [--json] [--limit N]`: the mails {sendmail} handed to a site, newest
 * first, with what became of each (sent, failed and why, not_sent without mail.smtp).
 */
import { parseArgs, positiveIntOption, UsageError } from '../args.js';
import { EXIT } from '../exit-codes.js';
import { openSiteFolder, SiteOpenError } from '../site-folder.js';
import { listOutbox, MAX_OUTBOX_LISTED, type OutboxRow } from '../../site/mail/outbox.js';
import type { Subcommand } from './site.js';
import { siteTime } from '../site-time.js';

const DEFAULT_LISTED = 50;

/** One line: control characters of stored text never reach the terminal as such. */
function line(r: OutboxRow, timeZone: string): string {
  const safe = (s: string) => JSON.stringify(s).slice(1, -1);
  const to = [...r.to, ...r.cc.map((a) => `cc:${a}`), ...r.bcc.map((a) => `bcc:${a}`)].join(', ');
  const error = r.error ? `  (${safe(r.error)})` : '';
  return `${String(r.id).padStart(5)}  ${siteTime(r.created, timeZone)}  ${r.status.padEnd(8)}  ${r.from} -> ${to}  "${safe(r.subject)}"${error}`;
}

export const siteOutbox: Subcommand = {
  name: 'outbox',
  summary: 'List the mails the site sent or kept, newest first.',
  usage: [
    'smartcage site outbox DIR [--json] [--limit N]',
    '',
    '  DIR        the site folder',
    '  --json     one JSON array of the mails, with their bodies and Message-IDs',
    `  --limit N  the newest N mails (default ${DEFAULT_LISTED}, at most ${MAX_OUTBOX_LISTED})`,
    '',
    'Status: sent (the relay took it), failed (why, in parentheses), not_sent (the site has no',
    'mail.smtp, so mails are kept here only), sending (the relay had it when the process ended).',
    '',
    'Exit status: 0 listed (also when there is none); 2 wrong usage; 3 the site cannot be opened.',
  ].join('\n'),
  async run(argv) {
    const { positionals, values } = parseArgs(argv, { json: { type: 'boolean' }, limit: { type: 'string' } });
    if (positionals.length !== 1) throw new UsageError('site outbox takes exactly one site folder');
    const limit = positiveIntOption(values, 'limit') ?? DEFAULT_LISTED;
    if (limit > MAX_OUTBOX_LISTED) throw new UsageError(`--limit is at most ${MAX_OUTBOX_LISTED}`);
    let site;
    try {
      site = await openSiteFolder(positionals[0]!);
    } catch (e) {
      if (!(e instanceof SiteOpenError)) throw e;
      process.stderr.write(`smartcage site outbox: ${e.message}\n`);
      return EXIT.IO;
    }
    try {
      const rows = await listOutbox(site, limit);
      const tz = site.config.timezone;
      const text = values.json
        ? `${JSON.stringify(
            rows.map((r) => ({ ...r, time: siteTime(r.created, tz) })),
            null,
            2,
          )}\n`
        : rows.length
          ? `${rows.map((r) => line(r, tz)).join('\n')}\n`
          : '';
      if (!values.json && rows.length === 0) process.stderr.write('no mails in the outbox\n');
      await new Promise<void>((done, fail) => process.stdout.write(text, (e) => (e ? fail(e) : done())));
    } finally {
      await site.close();
    }
    return EXIT.OK;
  },
};
