import { parseArgs, positiveIntOption, stringOption, timeZoneOption, UsageError } from '../args.js';
import { EXIT } from '../exit-codes.js';
import { createEngine } from '../../engine.js';
import { TemplateError, formatDiagnostic } from '../../errors.js';
import { toBytes } from '../../value/bytes.js';
import { includeResolver, readJsonText, readText, templateRoot, CliFileError } from './files.js';
import { CLI_HOST } from '../host.js';
import type { Command } from '../main.js';

export const renderCommand: Command = {
  name: 'render',
  summary: 'Render a template in the sandbox and print its output.',
  usage: [
    'smartcage render FILE|- [--vars VARS.json] [--templates DIR] [--timezone ZONE] [--objects] [--timeout MS] [--wall-timeout MS]',
    '',
    '  FILE              the template; - reads it from standard input',
    '  --vars FILE       template variables as a JSON object (key order is kept as PHP would)',
    '  --templates DIR   folder that {include file=...} reads from (default: the template\'s folder)',
    '  --timezone ZONE   site time zone for date functions (default Asia/Tokyo)',
    '  --objects         JSON objects in the variables become stdClass objects (for $a->b)',
    '  --timeout MS      CPU time allowed for the render (default 1000)',
    '  --wall-timeout MS wall-clock time allowed for the render, sleeps and host calls included (default 5000)',
  ].join('\n'),
  async run(argv) {
    const { positionals, values } = parseArgs(argv, {
      vars: { type: 'string' },
      templates: { type: 'string' },
      timezone: { type: 'string' },
      objects: { type: 'boolean' },
      timeout: { type: 'string' },
      'wall-timeout': { type: 'string' },
    });
    if (positionals.length !== 1) throw new UsageError('render takes exactly one template file (or - for standard input)');
    const file = positionals[0]!;
    const timezone = timeZoneOption(values, 'timezone');
    const cpuMs = positiveIntOption(values, 'timeout');
    const wallMs = positiveIntOption(values, 'wall-timeout');
    const name = file === '-' ? 'stdin' : file;
    try {
      const source = readText(file);
      const varsFile = stringOption(values, 'vars');
      const vars = varsFile === undefined ? undefined : readJsonText(varsFile);
      const engine = createEngine({
        workers: 1,
        templates: includeResolver(templateRoot(file, stringOption(values, 'templates'))),
        timezone,
        host: CLI_HOST,
        limits: { ...(cpuMs ? { cpuMs } : {}), ...(wallMs ? { wallMs } : {}) },
      });
      try {
        const r = await engine.render(source, { name, vars, objects: values.objects === true });
        // Compile warnings and the render's (W_RUNTIME), each at its line and column.
        for (const d of r.diagnostics) if (d.severity === 'warning') process.stderr.write(formatDiagnostic(d) + '\n');
        process.stdout.write(Buffer.from(toBytes(r.output)));
        return EXIT.OK;
      } finally {
        engine.close();
      }
    } catch (e) {
      if (e instanceof CliFileError) {
        process.stderr.write(`smartcage render: ${e.message}\n`);
        return EXIT.IO;
      }
      if (e instanceof TemplateError) {
        process.stderr.write(e.format() + '\n');
        return ['E_CPU_TIMEOUT', 'E_WALL_TIMEOUT', 'E_MEMORY_LIMIT', 'E_SANDBOX_CRASHED'].includes(e.code) ? EXIT.SANDBOX : EXIT.TEMPLATE_ERROR;
      }
      throw e;
    }
  },
};
