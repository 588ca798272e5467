import { parseArgs, positiveIntOption, stringOption, timeZoneOption, UsageError } from '../args.js';
import { EXIT } from '../exit-codes.js';
import { createEngine, type Engine } from '../../engine.js';
import path from 'node:path';
import { TemplateError } from '../../errors.js';
import { formatErrorShown, formatShown, type Folders } from '../shown-path.js';
import { diagnosticFor } from '../colour.js';
import { toBytes } from '../../value/bytes.js';
import { siteWatchPaths } from '../../site/watched-files.js';
import { includedFile, includeResolver, readJsonText, readText, templateRoot, CliFileError } from './files.js';
import { CLI_HOST } from '../host.js';
import { SITE_DEFAULTS } from '../../site-defaults.js';
import type { Command } from '../main.js';
import { contextOption, memberOption, renderWithSite, REQUEST_HELP } from './render-site.js';

export const renderCommand: Command = {
  name: 'render',
  summary: 'Render a template in the sandbox and print its output.',
  usage: [
    'smartcage render FILE|- [--vars VARS.json] [--templates DIR] [--timezone ZONE] [--objects] [--timeout MS] [--wall-timeout MS]',
    '                        [--site DIR [--member ID] [--context web|batch|admin-test] [--request REQUEST.json]] [--watch]',
    '',
    '  FILE              the template; - reads it from standard input',
    '  --site DIR        render on a local site (smartcage site init): its templates/ for {include},',
    '                    functions/ for {function}, site.json settings and its data (content, members,',
    '                    sessions, files...); not with --templates or --timezone',
    "  --member ID       run as this member of the site (default: the session cookie's, else nobody)",
    '  --context C       web (default), batch or admin-test: what some plugins are limited to',
    '  --request FILE    the request the render serves, see REQUEST.json below',
    '  --vars FILE       template variables as a JSON object (key order is kept as PHP would)',
    "  --templates DIR   folder that {include file=...} reads from (default: the template's folder)",
    `  --timezone ZONE   site time zone for date functions (default ${SITE_DEFAULTS.timezone})`,
    '  --objects         JSON objects in the variables become stdClass objects (for $a->b)',
    '  --timeout MS      CPU time allowed for the render (default 1000)',
    '  --wall-timeout MS wall-clock time allowed for the render, sleeps and host calls included (default 5000)',
    '  --watch           render again whenever the template, a template of its folder (or of --templates,',
    "                    or the site's templates/ and functions/), the --vars or --request file or the",
    "                    site's site.json, data/ and files/ change; stop with Ctrl-C",
    '',
    ...REQUEST_HELP,
    '',
    'With --site, the cookies the response sets ({login}, {logout}, {cookie}) are printed to standard',
    'error as Set-Cookie lines. Exit status: 0 rendered; 1 template error; 2 wrong usage (an unknown',
    'member too); 3 a file cannot be read or is not the JSON it must be, or the site cannot be',
    'opened; 4 the sandbox failed.',
  ].join('\n'),
  async run(argv) {
    const { positionals, values } = parseArgs(argv, {
      vars: { type: 'string' },
      templates: { type: 'string' },
      timezone: { type: 'string' },
      objects: { type: 'boolean' },
      timeout: { type: 'string' },
      'wall-timeout': { type: 'string' },
      site: { type: 'string' },
      member: { type: 'string' },
      context: { type: 'string' },
      request: { type: 'string' },
      watch: { type: 'boolean' },
    });
    if (positionals.length !== 1)
      throw new UsageError('render takes exactly one template file (or - for standard input)');
    const siteDir = stringOption(values, 'site');
    for (const o of siteDir === undefined ? ['member', 'context', 'request'] : ['templates', 'timezone']) {
      if (values[o] !== undefined)
        throw new UsageError(
          siteDir === undefined ? `--${o} needs --site DIR` : `--${o} does not go with --site (the site's own is used)`,
        );
    }
    const memberId = memberOption(stringOption(values, 'member'));
    const context = contextOption(stringOption(values, 'context'));
    const file = positionals[0]!;
    const timezone = timeZoneOption(values, 'timezone');
    const cpuMs = positiveIntOption(values, 'timeout');
    const wallMs = positiveIntOption(values, 'wall-timeout');
    const name = file === '-' ? 'stdin' : file;
    // Where the problems of included templates are, for the messages.
    const folders: Folders =
      siteDir === undefined
        ? { main: name, templates: templateRoot(file, stringOption(values, 'templates')) }
        : { main: name, templates: path.join(siteDir, 'templates'), functions: path.join(siteDir, 'functions') };
    const varsFile = stringOption(values, 'vars');
    const requestFile = stringOption(values, 'request');
    const limits = { ...(cpuMs ? { cpuMs } : {}), ...(wallMs ? { wallMs } : {}) };
    const watch = values.watch === true;
    if (watch && file === '-') throw new UsageError('--watch needs a template file, not standard input');
    // Without --site one engine serves every render of a --watch; it checks its includes each time.
    let engine: Engine | undefined;
    const includes = includeResolver(folders.templates);
    const included = new Set<string>();
    const plainEngine = (): Engine =>
      (engine ??= createEngine({
        // One render and the process ends (or a --watch's renders, one at a time): the isolate runs
        // here, under the same limits, rather than in a worker process that would start a second
        // Node for it (200 ms, D163).
        workers: 0,
        templates: (name) => {
          const text = includes(name);
          // What the render read is what --watch watches (a file that was missing too: it may come).
          const file = includedFile(folders.templates, name);
          if (file !== undefined) included.add(file);
          return text;
        },
        timezone,
        host: CLI_HOST,
        limits,
      }));

    const renderOnce = async (): Promise<number> => {
      try {
        const source = readText(file);
        const vars = varsFile === undefined ? undefined : readJsonText(varsFile);
        if (siteDir !== undefined) {
          const r = await renderWithSite({
            file,
            name,
            source,
            siteDir,
            memberId,
            context,
            requestFile,
            vars,
            objects: values.objects === true,
            limits,
            folders,
          });
          for (const line of r.notes) process.stderr.write(`${line}\n`);
          process.stdout.write(Buffer.from(toBytes(r.output)));
          return EXIT.OK;
        }
        const r = await plainEngine().render(source, { name, vars, objects: values.objects === true });
        // Compile warnings and the render's (W_RUNTIME), each at its line and column.
        for (const d of r.diagnostics)
          if (d.severity === 'warning')
            process.stderr.write(diagnosticFor(process.stderr, formatShown(d, folders)) + '\n');
        process.stdout.write(Buffer.from(toBytes(r.output)));
        return EXIT.OK;
      } catch (e) {
        if (e instanceof CliFileError) {
          process.stderr.write(`smartcage render: ${e.message}\n`);
          return EXIT.IO;
        }
        if (e instanceof TemplateError) {
          process.stderr.write(diagnosticFor(process.stderr, formatErrorShown(e, folders)) + '\n');
          return ['E_CPU_TIMEOUT', 'E_WALL_TIMEOUT', 'E_MEMORY_LIMIT', 'E_SANDBOX_CRASHED'].includes(e.code)
            ? EXIT.SANDBOX
            : EXIT.TEMPLATE_ERROR;
        }
        throw e;
      }
    };

    try {
      if (!watch) return await renderOnce();
      const { watchRender } = await import('./render-watch.js');
      const inputs = [
        file,
        ...(varsFile === undefined ? [] : [varsFile]),
        ...(requestFile === undefined ? [] : [requestFile]),
      ];
      return await watchRender({
        paths: () => (siteDir === undefined ? [...inputs, ...included] : [...inputs, ...siteWatchPaths(siteDir)]),
        render: renderOnce,
      });
    } finally {
      await engine?.close();
    }
  },
};
