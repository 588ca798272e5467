import { parseArgs, positiveIntOption, stringOption, timeZoneOption, UsageError } from '../args.js';
import { EXIT } from '../exit-codes.js';
import { createEngine } from '../../engine.js';
import path from 'node:path';
import { TemplateError } from '../../errors.js';
import { formatErrorShown, formatShown, type Folders } from '../shown-path.js';
import { diagnosticFor } from '../colour.js';
import { toBytes } from '../../value/bytes.js';
import { includeResolver, readJsonText, readText, templateRoot, CliFileError } from './files.js';
import { CLI_HOST } from '../host.js';
import type { Command } from '../main.js';
import { contextOption, memberOption, renderWithSite, REQUEST_HELP } from './render-site.js';
import { SiteOpenError } from '../site-folder.js';

export const renderCommand: Command = {
  name: 'render',
  summary: 'Render a template in the sandbox and print its output.',
  usage: [
    'smartcage render FILE|- [--vars VARS.json] [--templates DIR] [--timezone ZONE] [--objects] [--timeout MS] [--wall-timeout MS]',
    '                        [--site DIR [--member ID] [--context web|batch|admin-test] [--request REQUEST.json]]',
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
    '  --timezone ZONE   site time zone for date functions (default Asia/Tokyo)',
    '  --objects         JSON objects in the variables become stdClass objects (for $a->b)',
    '  --timeout MS      CPU time allowed for the render (default 1000)',
    '  --wall-timeout MS wall-clock time allowed for the render, sleeps and host calls included (default 5000)',
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
    try {
      const source = readText(file);
      const varsFile = stringOption(values, 'vars');
      const vars = varsFile === undefined ? undefined : readJsonText(varsFile);
      const limits = { ...(cpuMs ? { cpuMs } : {}), ...(wallMs ? { wallMs } : {}) };
      if (siteDir !== undefined) {
        const r = await renderWithSite({
          file,
          name,
          source,
          siteDir,
          memberId,
          context,
          requestFile: stringOption(values, 'request'),
          vars,
          objects: values.objects === true,
          limits,
          folders,
        });
        for (const line of r.notes) process.stderr.write(`${line}\n`);
        process.stdout.write(Buffer.from(toBytes(r.output)));
        return EXIT.OK;
      }
      const engine = createEngine({
        workers: 1,
        templates: includeResolver(folders.templates),
        timezone,
        host: CLI_HOST,
        limits,
      });
      try {
        const r = await engine.render(source, { name, vars, objects: values.objects === true });
        // Compile warnings and the render's (W_RUNTIME), each at its line and column.
        for (const d of r.diagnostics)
          if (d.severity === 'warning')
            process.stderr.write(diagnosticFor(process.stderr, formatShown(d, folders)) + '\n');
        process.stdout.write(Buffer.from(toBytes(r.output)));
        return EXIT.OK;
      } finally {
        engine.close();
      }
    } catch (e) {
      if (e instanceof CliFileError || e instanceof SiteOpenError) {
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
  },
};
