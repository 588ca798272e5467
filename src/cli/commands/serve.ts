/**
 * `smartcage serve [--site DIR | --sites DIR | --files DIR] [--host HOST] [--port N] ...`: starts
 * the form UI's HTTP app (src/forms-ui/server/app.ts), or with --site / --sites the app of local
 * sites around it (src/site/app/app.ts), until SIGINT or SIGTERM. Its options, their variables
 * and config-file keys are one table, src/site/server/options.ts.
 */
import { existsSync, statSync } from 'node:fs';
import { basename, extname, join, resolve } from 'node:path';
import { parseArgs, UsageError } from '../args.js';
import { EXIT } from '../exit-codes.js';
import { CliFileError, readJsonText } from './files.js';
import type { Command } from '../main.js';
import type { PageSchema } from '../../forms-ui/server/pages.js';
import {
  envName,
  resolveServeOptions,
  serveFlagSpec,
  serveOptionsHelp,
  ServeConfigError,
  type ServeConfig,
} from '../../site/server/options.js';
import { listen, type ServeServer } from '../../site/server/listen.js';
import { untilStopped } from '../../site/server/stop.js';
import { rerouter } from '../../site/server/reroute.js';
import {
  announceListening,
  childPort,
  clusterMetrics,
  isServeChild,
  primaryConnections,
  primaryOwners,
  primaryStopRequests,
  processCount,
  releasePrimary,
  runPrimary,
  canSupervise,
} from '../../site/server/processes.js';
import { SiteFolderError, SiteRegistry } from '../../site/registry.js';
import { isolateGroupsOf, routeKeyOf, tenancyOptions } from '../../site/server/tenancy-options.js';
import type { IsolateGroups } from '../../site/server/isolate-groups.js';
import { MetricsListenError, serverObserver } from './serve-observability.js';
import { CLI_HOST } from '../host.js';
import { formatErrorShown } from '../shown-path.js';
import { nodeErrorCode, firstLine } from '../caught.js';

const say = (line: string) => process.stderr.write(`smartcage serve: ${line}\n`);

/** `/demo/NAME` of a schema file: its base name, made unique among the samples and the other files. */
function pageName(file: string, taken: Set<string>): string {
  const base = basename(file, extname(file)).replace(/[^A-Za-z0-9_-]+/g, '-') || 'schema';
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base}-${n}`;
  taken.add(name);
  return name;
}

/** The one line for an address that cannot be listened on; undefined for any other error. */
function listenFailure(e: unknown, host: string, port: number): string | undefined {
  const code = nodeErrorCode(e);
  if (code === 'EADDRINUSE') return `port ${port} is in use (try --port 0 for a free one, or another --port N)`;
  if (code === 'EACCES') return `port ${port} may not be opened by this user (try --port 0, or a port above 1023)`;
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return `--host ${host} is not an address of this machine`;
  return undefined;
}

export const serveCommand: Command = {
  name: 'serve',
  summary: 'Serve local sites, or the JSON-schema form UI, its demo pages and APIs.',
  usage: [
    'smartcage serve [--site DIR | --sites DIR | --files DIR] [--host HOST] [--port N] [options]',
    '',
    'Options (each also from its environment variable, or from a JSON file named by --config;',
    'a flag wins over the environment, the environment over the file):',
    ...serveOptionsHelp(),
    '',
    'Logs: one JSON line per request on stderr (request id, site, endpoint, status, ms, render CPU,',
    "error code, memory class) and the templates' {logger} lines; /metrics: Prometheus text.",
    '',
    'A site (--site, --sites) answers at its root (--site) or at /sites/KEY/ and KEY.localhost:',
    '/rcms-api/API_ID/PATH (each endpoint runs its custom function in the sandbox with the',
    "request's query, body, session and cookies, and answers the JSON of its {return value=...}),",
    '/ext/GROUP/SLUG/ (the form editor of its JSON fields), its files/ for the file picker, the form',
    'samples at /forms/.',
    'Pages (?lang=ja: in Japanese): / (your schemas and the samples), /demo/NAME, /paste (paste',
    "a schema, see its form). Sent with a Content-Security-Policy without 'unsafe-eval':",
    'validators come precompiled from /validators/NAME.js.',
    'APIs: POST /api/validate, GET /api/files?path=/files/user/',
    'The browser bundle dist/forms-ui.js is made by `npm run build`.',
    '',
    'Health: GET /healthz (200 while the process runs), GET /readyz (200 {"ready":true}, or 503',
    'naming the kind of each backend of an open site that is down, or 503 while draining).',
    'Stop: SIGTERM or Ctrl-C stops accepting and lets requests in flight finish (--drain-timeout);',
    'a second one stops at once.',
    '',
    'Exit status: 0 stopped, every request finished; 5 stopped with requests cut (the drain',
    'timeout passed, or a second signal); 1 a --schema file is refused by the forms lint;',
    '2 wrong usage; 3 a file cannot be read or is not JSON, a bad option value or config-file key,',
    'the --files folder is missing, a site cannot be opened (no site.json, a wrong one, its',
    'database unreachable, two with one key), or the port is in use.',
  ].join('\n'),
  async run(argv) {
    try {
      return await serve(argv);
    } finally {
      // A child under a primary ends when this returns, however: its channel to the primary
      // would otherwise keep it alive, a start-up failure (a metrics port in use) included.
      if (isServeChild()) releasePrimary();
    }
  },
};

/** `smartcage serve`, its status; `run` lets a child under a primary end after it. */
async function serve(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs(argv, serveFlagSpec());
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  let cfg: ServeConfig;
  try {
    cfg = resolveServeOptions(values);
  } catch (e) {
    if (!(e instanceof ServeConfigError)) throw e;
    say(e.message);
    return EXIT.IO;
  }
  const given = (['files', 'site', 'sites'] as const).filter((o) => cfg[o] !== undefined);
  if (given.length > 1) {
    const why = `--${given[0]} and --${given[1]} do not go together (a site serves its own files)`;
    if (given.every((o) => values[o] !== undefined)) throw new UsageError(why);
    say(
      `${why}: set in ${given
        .filter((o) => values[o] === undefined)
        .map(envName)
        .join(', ')} or the config file`,
    );
    return EXIT.IO;
  }
  const { host } = cfg;
  const port = childPort() ?? cfg.port;
  const dir = resolve(cfg.files ?? 'files');
  const hasDir = existsSync(dir) && statSync(dir).isDirectory();
  if (cfg.files !== undefined && !hasDir) {
    say(`folder ${dir} does not exist`);
    return EXIT.IO;
  }
  // Loaded here, not at the top: the app needs ajv, an optional peer dependency the other commands run without.
  const { formsBundlePath, createFormsApp } = await import('../../forms-ui/server/app.js');
  const { checkPageSchema } = await import('../../forms-ui/server/page-schema.js');
  const { samples } = await import('../../forms/samples/index.js');
  const schemas: PageSchema[] = [];
  const taken = new Set(Object.keys(samples));
  for (const file of cfg.schema) {
    let text: string;
    try {
      text = readJsonText(file);
    } catch (e) {
      if (!(e instanceof CliFileError)) throw e;
      say(e.message);
      return EXIT.IO;
    }
    const checked = checkPageSchema(JSON.parse(text), 'en');
    if (!checked.ok) {
      say(`${file}: ${checked.problems[0]}`);
      for (const p of checked.problems.slice(1)) process.stderr.write(`  ${p}\n`);
      return EXIT.TEMPLATE_ERROR;
    }
    for (const note of checked.notes) say(`${file}: note: ${note}`);
    schemas.push({ name: pageName(file, taken), schema: checked.schema });
  }
  if (!existsSync(formsBundlePath()))
    say('dist/forms-ui.js is missing; run `npm run build` (or `node scripts/build-forms-ui.mjs`)');
  const siteDir = cfg.site;
  const sitesDir = cfg.sites;
  let tenancy: ReturnType<typeof tenancyOptions>;
  let groups: IsolateGroups | undefined;
  try {
    groups = isolateGroupsOf(cfg);
    tenancy = tenancyOptions(cfg, isServeChild(), groups);
  } catch (e) {
    if (!(e instanceof ServeConfigError)) throw e;
    say(e.message);
    return EXIT.IO;
  }
  // Every site.json is read and checked now; a site's database, queue and stores open at its
  // first request (src/site/registry.ts), except with --site, whose database must open at start.
  let registry: SiteRegistry | null = null;
  if (siteDir !== undefined || sitesDir !== undefined) {
    const log = (line: string) => say(line);
    try {
      registry =
        siteDir !== undefined
          ? SiteRegistry.folder(siteDir, { ...tenancy, log })
          : SiteRegistry.load(sitesDir!, { ...tenancy, log });
    } catch (e) {
      if (!(e instanceof SiteFolderError)) throw e;
      say(e.message);
      return EXIT.IO;
    }
    if (siteDir !== undefined) {
      try {
        await registry.open(registry.keys()[0]!);
      } catch (e) {
        await registry.close();
        say(`${siteDir}: the site's database could not be opened (${firstLine(e)})`);
        return EXIT.IO;
      }
    }
  }
  const closeSites = () => registry?.close() ?? Promise.resolve();
  const keys = registry?.keys() ?? [];
  const addressLines = (url: string, port: number): string[] => {
    const lines: string[] = [];
    if (siteDir !== undefined) {
      lines.push(
        `smartcage serve: ${url}/ (site ${keys[0]}: API at ${url}/rcms-api/, files: ${join(registry!.dirOf(keys[0]!), 'files')}/); Ctrl-C stops`,
      );
    } else if (sitesDir !== undefined) {
      lines.push(`smartcage serve: ${url}/ (${keys.length} sites); Ctrl-C stops`);
      for (const k of keys) lines.push(`  ${k}: ${url}/sites/${k}/ or http://${k}.localhost:${port}/`);
    } else {
      const files = hasDir ? `files: ${join(dir, 'user')}/ is /files/user/` : `files: none, ${dir} does not exist`;
      lines.push(`smartcage serve: ${url}/ (${files}); Ctrl-C stops`);
    }
    for (const x of schemas) lines.push(`  ${x.name}: ${url}/demo/${x.name}`);
    return lines;
  };
  // --processes N > 1, or a lone --site: this process becomes the primary (processes.ts). It read
  // the sites above only to check them; each child opens what it serves (migrations run under a lock).
  const child = isServeChild();
  const count = processCount(cfg.processes, sitesDir !== undefined);
  if (typeof count === 'string') {
    await closeSites();
    say(count);
    return EXIT.IO;
  }
  // A lone site server is one child under a primary too, unless --processes says otherwise
  // (D371): the child renders in its own process (D200) and the primary starts another if a
  // crash in the sandbox takes it, which a sandbox worker per engine was there for.
  const supervised = count > 1 || (count === 1 && cfg.processes === undefined && siteDir !== undefined);
  if (supervised && canSupervise() && !child) {
    await closeSites();
    // The children's metrics, summed by this primary: the first child to listen says where they are.
    const metricsLine = (m?: string) => (m === undefined ? [] : [`  metrics: ${m}; logs: JSON lines on stderr`]);
    try {
      return await runPrimary({
        count,
        host,
        port,
        addressLines: (url, p, m) => [...addressLines(url, p), ...metricsLine(m)],
        cutStatus: EXIT.DRAIN_CUT,
        // Sites are addressed by their key (the Host or the path): each goes to one child (D226),
        // or each group of sites that share isolates (D343).
        affinity: sitesDir !== undefined && cfg.affinity === 'on',
        routeKey: routeKeyOf(groups),
        onHangup: () => groups?.reload(),
      });
    } catch (e) {
      // Listening (with affinity) or picking a free port for --port 0: the children say their own failures.
      const why = listenFailure(e, host, port);
      if (why === undefined) throw e;
      say(why);
      return EXIT.IO;
    }
  }
  let s: ServeServer;
  // The access log and /metrics, with or without sites.
  const observer = serverObserver(cfg, registry);
  // A child of --processes N: a scrape of any child answers with every child's metrics.
  if (child && observer.metrics) observer.metrics.useCluster(await clusterMetrics(observer.metrics.registry));
  let metricsUrl: string;
  try {
    const ownPort = await observer.listenMetrics();
    if (registry) {
      const { startSiteServer } = await import('../../site/app/app.js');
      const owners = primaryOwners();
      s = await startSiteServer({
        host,
        port,
        sites: registry,
        mode: siteDir !== undefined ? 'single' : 'multi',
        schemas,
        observer,
        // A playground render reaches what `smartcage render` does; errors name files as it does.
        playgroundHost: CLI_HOST,
        showError: formatErrorShown,
        connections: primaryConnections(),
        // A request on a connection another site brought here goes to its site's owner (D238).
        reroute:
          owners && rerouter({ ...owners, host, routeKey: routeKeyOf(groups), relayed: (r) => observer.relayed(r) }),
      });
    } else {
      s = await listen(observer.wrap(createFormsApp({ storageDir: hasDir ? dir : undefined, schemas })), {
        host,
        port,
      });
    }
    metricsUrl = ownPort ?? `${s.url}/metrics`;
  } catch (e) {
    await observer.close();
    await closeSites();
    const why = e instanceof MetricsListenError ? e.message : listenFailure(e, host, port);
    if (why === undefined) throw e;
    say(why);
    return EXIT.IO;
  }
  if (child) announceListening(s.url, s.port, metricsUrl);
  // One write: a reader that waits for the address line gets the lines under it with it.
  else
    process.stdout.write(
      `${[...addressLines(s.url, s.port), `  metrics: ${metricsUrl}; logs: JSON lines on stderr`].join('\n')}\n`,
    );
  // SIGHUP: every site.json read again, new site folders added (src/site/registry.ts), and the
  // --isolate-groups file read again (a broken one keeps the last good groups).
  const rescan = () => {
    if (groups) say(groups.reload());
    void registry?.rescan();
  };
  process.on('SIGHUP', rescan);
  const stopped = await untilStopped(s, cfg['drain-timeout'] * 1000, child ? primaryStopRequests : undefined);
  process.off('SIGHUP', rescan);
  await observer.close();
  await closeSites();
  return stopped === 'drained' ? EXIT.OK : EXIT.DRAIN_CUT;
}
