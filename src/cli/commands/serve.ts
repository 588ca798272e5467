/**
 * `smartcage serve [--site DIR | --sites DIR | --files DIR] [--host HOST] [--port N] ...`: starts
 * the form UI's HTTP app (src/forms-ui/server/app.ts), or with --site / --sites the app of local
 * sites around it (../site-server/app.ts), until SIGINT or SIGTERM. Its options, their variables
 * and config-file keys are one table, src/site/server/options.ts.
 */
import { existsSync, statSync } from 'node:fs';
import { basename, extname, join, resolve } from 'node:path';
import { parseArgs, UsageError } from '../args.js';
import { EXIT } from '../exit-codes.js';
import { CliFileError, readJsonText } from './files.js';
import type { Command } from '../main.js';
import type { PageSchema } from '../../forms-ui/server/pages.js';
import { envName, resolveServeOptions, serveFlagSpec, serveOptionsHelp, ServeConfigError, type ServeConfig } from '../../site/server/options.js';
import { listen, type ServeServer } from '../../site/server/listen.js';
import { untilStopped } from '../../site/server/stop.js';
import { announceListening, childPort, isServeChild, primaryStopRequests, processCount, releasePrimary, runPrimary } from '../../site/server/processes.js';
import type { Site } from '../../site/open-site.js';
import { openSiteFolder, openSiteFolders, SiteOpenError } from '../site-folder.js';

const say = (line: string) => process.stderr.write(`smartcage serve: ${line}\n`);

/** `/demo/NAME` of a schema file: its base name, made unique among the samples and the other files. */
function pageName(file: string, taken: Set<string>): string {
  const base = basename(file, extname(file)).replace(/[^A-Za-z0-9_-]+/g, '-') || 'schema';
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base}-${n}`;
  taken.add(name);
  return name;
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
      say(`${why}: set in ${given.filter((o) => values[o] === undefined).map(envName).join(', ')} or the config file`);
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
    if (!existsSync(formsBundlePath())) say('dist/forms-ui.js is missing; run `npm run build` (or `node scripts/build-forms-ui.mjs`)');
    const siteDir = cfg.site;
    const sitesDir = cfg.sites;
    let sites: Site[] = [];
    if (siteDir !== undefined || sitesDir !== undefined) {
      try {
        sites = siteDir !== undefined ? [await openSiteFolder(siteDir)] : await openSiteFolders(sitesDir!);
      } catch (e) {
        if (!(e instanceof SiteOpenError)) throw e;
        say(e.message);
        return EXIT.IO;
      }
    }
    const closeSites = () => Promise.all(sites.map((x) => x.close()));
    const addressLines = (url: string, port: number): string[] => {
      const lines: string[] = [];
      if (siteDir !== undefined) {
        lines.push(`smartcage serve: ${url}/ (site ${sites[0]!.tenant}: API at ${url}/rcms-api/, files: ${join(sites[0]!.dir, 'files')}/); Ctrl-C stops`);
      } else if (sitesDir !== undefined) {
        lines.push(`smartcage serve: ${url}/ (${sites.length} sites); Ctrl-C stops`);
        for (const x of sites) lines.push(`  ${x.tenant}: ${url}/sites/${x.tenant}/ or http://${x.tenant}.localhost:${port}/`);
      } else {
        const files = hasDir ? `files: ${join(dir, 'user')}/ is /files/user/` : `files: none, ${dir} does not exist`;
        lines.push(`smartcage serve: ${url}/ (${files}); Ctrl-C stops`);
      }
      for (const x of schemas) lines.push(`  ${x.name}: ${url}/demo/${x.name}`);
      return lines;
    };
    // --processes N > 1: this process becomes the primary (processes.ts). It opened the sites
    // above only to check them (and migrate their databases once, not N times at once).
    const child = isServeChild();
    const count = processCount(cfg.processes, sitesDir !== undefined);
    if (typeof count === 'string') {
      await closeSites();
      say(count);
      return EXIT.IO;
    }
    if (count > 1 && !child) {
      await closeSites();
      try {
        return await runPrimary({ count, host, port, addressLines, cutStatus: EXIT.DRAIN_CUT });
      } catch (e) {
        // Only picking a free port for --port 0 can fail here: the children say their own failures.
        const code = (e as NodeJS.ErrnoException).code;
        if (code !== 'EADDRNOTAVAIL' && code !== 'ENOTFOUND' && code !== 'EAI_AGAIN') throw e;
        say(`--host ${host} is not an address of this machine`);
        return EXIT.IO;
      }
    }
    let s: ServeServer;
    try {
      if (sites.length > 0) {
        const { startSiteServer } = await import('../site-server/app.js');
        s = await startSiteServer({ host, port, sites, mode: siteDir !== undefined ? 'single' : 'multi', schemas });
      } else {
        s = await listen(createFormsApp({ storageDir: hasDir ? dir : undefined, schemas }), { host, port });
      }
    } catch (e) {
      await closeSites();
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EADDRINUSE') say(`port ${port} is in use (try --port 0 for a free one, or another --port N)`);
      else if (code === 'EACCES') say(`port ${port} may not be opened by this user (try --port 0, or a port above 1023)`);
      else if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') say(`--host ${host} is not an address of this machine`);
      else throw e;
      return EXIT.IO;
    }
    if (child) announceListening(s.url, s.port);
    // One write: a reader that waits for the address line gets the lines under it with it.
    else process.stdout.write(`${addressLines(s.url, s.port).join('\n')}\n`);
    const stopped = await untilStopped(s, cfg['drain-timeout'] * 1000, child ? primaryStopRequests : undefined);
    await closeSites();
    if (child) releasePrimary();
    return stopped === 'drained' ? EXIT.OK : EXIT.DRAIN_CUT;
  },
};
