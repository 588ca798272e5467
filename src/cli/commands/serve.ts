/**
 * `smartcage serve [--port N] [--files DIR | --site DIR | --sites DIR] [--schema FILE]...`:
 * starts the form UI's HTTP app (src/forms-ui/server/app.ts), or with --site / --sites the app
 * of local sites around it (../site-server/app.ts), on 127.0.0.1 until SIGINT or SIGTERM.
 */
import { existsSync, statSync } from 'node:fs';
import { basename, extname, join, resolve } from 'node:path';
import { parseArgs, stringOption, stringsOption, UsageError } from '../args.js';
import { EXIT } from '../exit-codes.js';
import { CliFileError, readJsonText } from './files.js';
import type { Command } from '../main.js';
import type { PageSchema } from '../../forms-ui/server/pages.js';
import type { FormsServer } from '../../forms-ui/server/app.js';
import { SiteFolderError, SiteRegistry } from '../../site/registry.js';
import { TENANCY_SPEC, TENANCY_USAGE, tenancyOptions } from '../site-server/tenancy-options.js';
import { MetricsListenError, OBSERVABILITY_OPTIONS, OBSERVABILITY_USAGE, observabilitySettings, siteServerObserver } from './serve-observability.js';

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
  summary: 'Serve the JSON-schema form UI, its demo pages and APIs on 127.0.0.1.',
  usage: [
    'smartcage serve [--port N] [--files DIR | --site DIR | --sites DIR] [--schema FILE]...',
    '',
    '  --port N       port on 127.0.0.1 (default 8080; 0 picks a free one)',
    '  --site DIR     serve a local site (smartcage site init) at /: its API at',
    '                 /rcms-api/API_ID/PATH (each endpoint runs its custom function in the sandbox',
    '                 with the request\'s query, JSON or form body, session and cookies, and answers',
    '                 the JSON of its {return value=...}), the form editor of its JSON fields at',
    '                 /ext/GROUP/SLUG/, its files/ for the file picker, the form samples at /forms/',
    '  --sites DIR    serve every site folder under DIR, each its own tenant, at /sites/KEY/ and',
    '                 at http://KEY.localhost:PORT/ (KEY: its site key); / lists them. Every',
    '                 site.json is checked at start; a site\'s database opens at its first request',
    '                 and closes when it is idle. A changed site.json is picked up when the site',
    '                 is next used (a broken one keeps the last good, logged); SIGHUP rereads',
    '                 them all at once and adds new site folders. What one site may take:',
    ...TENANCY_USAGE,
    '  --files DIR    the site\'s file storage, a folder per root: DIR/user/ is served as',
    '                 /files/user/ for the file picker (DIR/user/a.png is /files/user/a.png).',
    '                 Default ./files when it exists; else the picker shows an empty folder',
    '  --schema FILE  a JSON schema of your own, shown first as /demo/NAME (NAME: the file\'s',
    '                 base name); checked like the samples first. Repeat for more files',
    ...OBSERVABILITY_USAGE,
    '',
    'Pages (?lang=ja: in Japanese): / (your schemas and the samples), /demo/NAME, /paste (paste',
    "a schema, see its form). Sent with a Content-Security-Policy without 'unsafe-eval':",
    'validators come precompiled from /validators/NAME.js.',
    'APIs: POST /api/validate, GET /api/files?path=/files/user/',
    'The browser bundle dist/forms-ui.js is made by `npm run build`.',
    '',
    'Exit status: 0 stopped (Ctrl-C, SIGTERM); 1 a --schema file is refused by the forms lint;',
    '2 wrong usage; 3 a file cannot be read or is not JSON, the --files folder is missing, a site',
    'cannot be opened (no site.json, a wrong one, its database unreachable, two with one key), or',
    'the port is in use.',
  ].join('\n'),
  async run(argv) {
    const { positionals, values } = parseArgs(argv, {
      port: { type: 'string' },
      files: { type: 'string' },
      site: { type: 'string' },
      sites: { type: 'string' },
      schema: { type: 'string', multiple: true },
      ...TENANCY_SPEC,
      ...OBSERVABILITY_OPTIONS,
    });
    if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
    const given = ['files', 'site', 'sites'].filter((o) => values[o] !== undefined);
    if (given.length > 1) throw new UsageError(`--${given[0]} and --${given[1]} do not go together (a site serves its own files)`);
    const portFlag = stringOption(values, 'port');
    const port = portFlag === undefined ? 8080 : Number(portFlag);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError('--port needs an integer from 0 to 65535');
    const observability = observabilitySettings(values);
    const filesFlag = stringOption(values, 'files');
    const dir = resolve(filesFlag ?? 'files');
    const hasDir = existsSync(dir) && statSync(dir).isDirectory();
    if (filesFlag !== undefined && !hasDir) {
      say(`folder ${dir} does not exist`);
      return EXIT.IO;
    }
    // Loaded here, not at the top: the app needs ajv, an optional peer dependency the other commands run without.
    const { formsBundlePath, startFormsServer } = await import('../../forms-ui/server/app.js');
    const { checkPageSchema } = await import('../../forms-ui/server/page-schema.js');
    const { samples } = await import('../../forms/samples/index.js');
    const schemas: PageSchema[] = [];
    const taken = new Set(Object.keys(samples));
    for (const file of stringsOption(values, 'schema')) {
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
    const siteDir = stringOption(values, 'site');
    const sitesDir = stringOption(values, 'sites');
    const tenancy = tenancyOptions(values);
    let registry: SiteRegistry | null = null;
    if (siteDir !== undefined || sitesDir !== undefined) {
      const log = (line: string) => say(line);
      try {
        registry = siteDir !== undefined ? SiteRegistry.folder(siteDir, { ...tenancy, log }) : SiteRegistry.load(sitesDir!, { ...tenancy, log });
      } catch (e) {
        if (!(e instanceof SiteFolderError)) throw e;
        say(e.message);
        return EXIT.IO;
      }
      if (siteDir !== undefined) {
        // One site: its database must open now, as it always had to.
        try {
          await registry.open(registry.keys()[0]!);
        } catch (e) {
          await registry.close();
          say(`${siteDir}: the site's database could not be opened (${(e as Error).message.split('\n')[0]})`);
          return EXIT.IO;
        }
      }
    }
    const closeSites = () => registry?.close() ?? Promise.resolve();
    let s: FormsServer;
    const observer = registry ? siteServerObserver(observability, registry) : undefined;
    let metricsUrl: string | null = null;
    try {
      if (registry) {
        const { startSiteServer } = await import('../site-server/app.js');
        const ownPort = await observer?.listenMetrics();
        s = await startSiteServer({ port, sites: registry, mode: siteDir !== undefined ? 'single' : 'multi', schemas, observer });
        metricsUrl = ownPort ?? `${s.url}/metrics`;
      } else {
        s = await startFormsServer({ port, storageDir: hasDir ? dir : undefined, schemas });
      }
    } catch (e) {
      await observer?.close();
      await closeSites();
      const code = (e as NodeJS.ErrnoException).code;
      if (e instanceof MetricsListenError) say(e.message);
      else if (code === 'EADDRINUSE') say(`port ${port} is in use (try --port 0 for a free one, or another --port N)`);
      else if (code === 'EACCES') say(`port ${port} may not be opened by this user (try --port 0, or a port above 1023)`);
      else throw e;
      return EXIT.IO;
    }
    // One write: a reader that waits for the address line gets the lines under it with it.
    const lines: string[] = [];
    const keys = registry?.keys() ?? [];
    if (siteDir !== undefined) {
      lines.push(`smartcage serve: ${s.url}/ (site ${keys[0]}: API at ${s.url}/rcms-api/, files: ${join(registry!.dirOf(keys[0]!), 'files')}/); Ctrl-C stops`);
    } else if (sitesDir !== undefined) {
      lines.push(`smartcage serve: ${s.url}/ (${keys.length} sites); Ctrl-C stops`);
      for (const k of keys) lines.push(`  ${k}: ${s.url}/sites/${k}/ or http://${k}.localhost:${s.port}/`);
    } else {
      const files = hasDir ? `files: ${join(dir, 'user')}/ is /files/user/` : `files: none, ${dir} does not exist`;
      lines.push(`smartcage serve: ${s.url}/ (${files}); Ctrl-C stops`);
    }
    for (const x of schemas) lines.push(`  ${x.name}: ${s.url}/demo/${x.name}`);
    if (metricsUrl !== null) lines.push(`  metrics: ${metricsUrl}; logs: JSON lines on stderr`);
    process.stdout.write(`${lines.join('\n')}\n`);
    await new Promise<void>((done) => {
      // SIGHUP: every site.json read again, new site folders added (src/site/registry.ts).
      const rescan = () => void registry?.rescan();
      process.on('SIGHUP', rescan);
      const stop = () => {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
        process.off('SIGHUP', rescan);
        void s.close().then(() => observer?.close()).then(closeSites).then(() => done());
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    });
    return EXIT.OK;
  },
};
