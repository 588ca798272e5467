/**
 * `smartcage batch run|list|history --site DIR`: a local site's batches (src/site/batches).
 * `run` queues the schedules that are due and runs the queue: with --once until nothing waits,
 * else until SIGINT/SIGTERM (the run in progress ends first). Progress and the summary go to
 * standard error; `list` and `history` print to standard output.
 */
import { parseArgs, positiveIntOption, stringOption, UsageError } from '../args.js';
import { EXIT } from '../exit-codes.js';
import { openSiteFolder, openSiteFolders, SiteOpenError } from '../site-folder.js';
import type { Site } from '../../site/open-site.js';
import type { Command } from '../main.js';
import { commandOf, type Subcommand } from './subcommands.js';
import { HEARTBEAT_MS, runSitesBatches, type RunEvent } from '../../site/batches/runner.js';
import { history, recordCancelledQueued } from '../../site/batches/history.js';
import { siteTime } from '../site-time.js';
import { siteQueue } from '../../site/batches/site-queue.js';

async function withSite(
  command: string,
  argv: string[],
  extra: Parameters<typeof parseArgs>[1],
  op: (site: Site, values: ReturnType<typeof parseArgs>['values']) => Promise<number>,
): Promise<number> {
  const { positionals, values } = parseArgs(argv, { site: { type: 'string' }, ...extra });
  if (positionals.length > 0) throw new UsageError(`batch ${command} takes no file arguments (got ${positionals[0]})`);
  const dir = stringOption(values, 'site');
  if (!dir) throw new UsageError(`batch ${command} needs --site DIR`);
  let site: Site;
  try {
    site = await openSiteFolder(dir);
  } catch (e) {
    if (e instanceof SiteOpenError) {
      process.stderr.write(`smartcage batch ${command}: ${e.message}\n`);
      return EXIT.IO;
    }
    throw e;
  }
  try {
    return await op(site, values);
  } finally {
    await site.close();
  }
}

/** One progress line; `many`: the runner serves several sites, so each line names its site. */
function progressLine(e: RunEvent, many: boolean): string {
  const where = many ? `${e.site}: ` : '';
  if (e.kind === 'queued') return `batch: ${where}queued ${e.slug} (schedule)`;
  if (e.kind === 'backend')
    return `batch: ${e.site}: the site's database or queue failed (${e.message}); trying again in ${e.retryMs} ms`;
  const run = e.run!;
  const head = `batch: ${where}run ${run.id} ${e.slug} (${run.origin}${run.attempt > 1 ? `, attempt ${run.attempt}` : ''})`;
  if (e.kind === 'start') return `${head} started`;
  const lost = e.kept === false ? ' (its lease was lost meanwhile: another worker may run it again)' : '';
  return `${head} ${e.state}${e.error ? `: ${e.error}` : ''}${lost}`;
}

const run: Subcommand = {
  name: 'run',
  summary: 'Run the queued and due batch runs of a site, or of every site under a folder.',
  usage: [
    'smartcage batch run --site DIR | --sites DIR [--once] [--poll SECONDS] [--lease SECONDS]',
    '',
    '  --site DIR       the site folder',
    '  --sites DIR      every site folder right under DIR (a folder with a site.json), from this one',
    '                   worker: each turn runs at most one run per site, so no site waits behind',
    "                   another's long queue; progress lines start with the site key",
    '  --once           run what is queued or due until nothing waits, then exit',
    '                   (without it: keep running, queue each schedule when due, until Ctrl-C)',
    '  --poll SECONDS   how often an idle runner looks for work (default 5)',
    "  --lease SECONDS  how long a run stays this worker's without a renewal (default 60); a run",
    '                   whose worker died is run again by another once its lease has expired',
    '',
    'Each run renders batches/<slug>.tpl in the batch context (no member, no request, no cookies)',
    'with its data as $ext_data; `smartcage batch history` shows the output, errors and logs.',
    '',
    'Exit status: 0 every run done; 1 a run failed (its template had an error); 2 wrong usage;',
    '3 a site cannot be opened.',
  ].join('\n'),
  async run(argv) {
    const { positionals, values } = parseArgs(argv, {
      site: { type: 'string' },
      sites: { type: 'string' },
      once: { type: 'boolean' },
      poll: { type: 'string' },
      lease: { type: 'string' },
    });
    if (positionals.length > 0) throw new UsageError(`batch run takes no file arguments (got ${positionals[0]})`);
    const one = stringOption(values, 'site');
    const all = stringOption(values, 'sites');
    if ((one === undefined) === (all === undefined))
      throw new UsageError('batch run needs --site DIR or --sites DIR (one of them)');
    const poll = positiveIntOption(values, 'poll');
    const lease = positiveIntOption(values, 'lease');
    let sites: Site[];
    let close: () => Promise<void>;
    try {
      if (one !== undefined) {
        const site = await openSiteFolder(one);
        [sites, close] = [[site], () => site.close()];
      } else ({ sites, close } = await openSiteFolders(all!));
    } catch (e) {
      if (!(e instanceof SiteOpenError)) throw e;
      process.stderr.write(`smartcage batch run: ${e.message}\n`);
      return EXIT.IO;
    }
    const stop = new AbortController();
    const onSignal = () => stop.abort();
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    try {
      const summary = await runSitesBatches(sites, {
        once: values.once === true,
        pollMs: poll === undefined ? undefined : poll * 1000,
        leaseMs: lease === undefined ? undefined : lease * 1000,
        signal: stop.signal,
        onEvent: (e) => process.stderr.write(progressLine(e, all !== undefined) + '\n'),
      });
      process.stderr.write(
        `batch: ${summary.done} done, ${summary.failed} failed${summary.cancelled ? `, ${summary.cancelled} cancelled` : ''}\n`,
      );
      return summary.failed > 0 ? EXIT.TEMPLATE_ERROR : EXIT.OK;
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      await close();
    }
  },
};

const list: Subcommand = {
  name: 'list',
  summary: "List the site's batches, their schedules and the queue.",
  usage: [
    'smartcage batch list --site DIR',
    '',
    'One line per batch of site.json: id, slug, schedule; then the runs waiting.',
  ].join('\n'),
  async run(argv) {
    return withSite('list', argv, {}, async (site) => {
      for (const b of site.config.batches) {
        process.stdout.write(
          `${String(b.id ?? '-').padStart(4)}  ${b.slug.padEnd(24)} ${b.schedule ?? '(started by {batch} only)'}\n`,
        );
      }
      const q = await (await siteQueue(site)).counts();
      process.stdout.write(`queue: ${q.queued} queued, ${q.running} running\n`);
      return EXIT.OK;
    });
  },
};

const historyCmd: Subcommand = {
  name: 'history',
  summary: "Show the site's batch runs, newest first, with output, errors and logs.",
  usage: [
    'smartcage batch history --site DIR [--run ID] [--limit N] [--json]',
    '',
    '  --run ID    only the attempts of run ID, with their output',
    '  --limit N   at most N attempts (default 20)',
    '  --json      the records as JSON, one array',
  ].join('\n'),
  async run(argv) {
    return withSite(
      'history',
      argv,
      { run: { type: 'string' }, limit: { type: 'string' }, json: { type: 'boolean' } },
      async (site, values) => {
        const runId = positiveIntOption(values, 'run');
        const records = await history(site, { runId, limit: positiveIntOption(values, 'limit') ?? 20 });
        if (values.json === true) {
          process.stdout.write(JSON.stringify(records, null, 2) + '\n');
          return EXIT.OK;
        }
        const time = (t: number | null) => (t === null ? '-' : siteTime(t, site.config.timezone));
        for (const r of records) {
          process.stdout.write(
            `${r.runId}#${r.attempt}  ${r.slug}  ${r.state}  from ${r.origin}  ${time(r.started)} .. ${time(r.ended)}  worker ${r.worker}\n`,
          );
          if (r.state === 'running')
            process.stdout.write(`  heartbeat: ${time(r.heartbeat)}${r.progress ? `  progress: ${r.progress}` : ''}\n`);
          else if (r.progress) process.stdout.write(`  progress: ${r.progress}\n`);
          for (const e of r.errors) process.stdout.write(`  error: ${e}\n`);
          for (const w of r.warnings) process.stdout.write(`  warning: ${w}\n`);
          for (const l of r.logs) process.stdout.write(`  ${l.level}: ${l.message}\n`);
          if (runId !== undefined && r.output !== '') process.stdout.write(r.output.replace(/^/gm, '  | ') + '\n');
        }
        return EXIT.OK;
      },
    );
  },
};

const cancelCmd: Subcommand = {
  name: 'cancel',
  summary: 'Cancel a queued or running batch run.',
  usage: [
    'smartcage batch cancel DIR RUN_ID   (or --site DIR RUN_ID)',
    '',
    'A queued run is cancelled at once and never starts. A running one is marked: its worker sees',
    `the mark at its next heartbeat (at most ${HEARTBEAT_MS / 1000} s) and stops the render and the host work it`,
    'runs (requests, files, sleeps); `smartcage batch history` then says cancelled.',
    '',
    'Exit status: 0 cancelled or being cancelled; 1 the run had already ended; 2 wrong usage or no',
    'such run; 3 the site cannot be opened.',
  ].join('\n'),
  async run(argv) {
    const { positionals, values } = parseArgs(argv, { site: { type: 'string' } });
    const given = stringOption(values, 'site');
    const [dir, id] = given === undefined ? positionals : [given, ...positionals];
    if (dir === undefined || id === undefined || positionals.length > (given === undefined ? 2 : 1))
      throw new UsageError('batch cancel takes DIR RUN_ID');
    if (!/^[1-9][0-9]{0,15}$/.test(id)) throw new UsageError(`batch cancel: RUN_ID must be a run id (got ${id})`);
    const runId = Number(id);
    return withSite('cancel', ['--site', dir], {}, async (site) => {
      const queue = await siteQueue(site);
      const answer = await queue.cancel(runId);
      switch (answer) {
        case 'cancelled': {
          const row = await site.db.get<{ slug: string; module: string | null; origin: string }>(
            'SELECT slug, module, origin FROM batch_queue WHERE tenant = ? AND id = ?',
            [site.tenant, runId],
          );
          const slug = row!.module ? `${row!.module}/${row!.slug}` : row!.slug;
          await recordCancelledQueued(site, { id: runId, slug, origin: row!.origin }, Math.floor(Date.now() / 1000));
          process.stdout.write(`run ${runId} cancelled (it was queued and never starts)\n`);
          return EXIT.OK;
        }
        case 'cancelling':
          process.stdout.write(`run ${runId} is running: its worker stops it at its next heartbeat\n`);
          return EXIT.OK;
        case 'finished':
          process.stderr.write(`smartcage batch cancel: run ${runId} has already ended\n`);
          return EXIT.TEMPLATE_ERROR;
        case 'unknown':
          process.stderr.write(`smartcage batch cancel: the site has no run ${runId} waiting or recent\n`);
          return EXIT.USAGE;
      }
    });
  },
};

export const batchCommand: Command = commandOf('batch', "Run a local site's batches and show their history.", [
  run,
  list,
  historyCmd,
  cancelCmd,
]);
