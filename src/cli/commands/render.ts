import { parseArgs, UsageError } from '../args.js';
import { EXIT } from '../exit-codes.js';
import { createEngine } from '../../engine.js';
import { TemplateError } from '../../errors.js';
import { toBytes } from '../../runtime/bytes.js';
import { includeResolver, readText, templateRoot, CliFileError } from './files.js';
import type { Command } from '../main.js';

export const renderCommand: Command = {
  name: 'render',
  summary: 'Render a template in the sandbox and print its output.',
  usage: [
    'smartcage render FILE [--vars VARS.json] [--templates DIR] [--timezone ZONE] [--objects] [--timeout MS]',
    '',
    '  --vars FILE       template variables as a JSON object (key order is kept as PHP would)',
    '  --templates DIR   folder that {include file=...} reads from (default: the template\'s folder)',
    '  --timezone ZONE   site time zone for date functions (default Asia/Tokyo)',
    '  --objects         JSON objects in the variables become stdClass objects (for $a->b)',
    '  --timeout MS      CPU time allowed for the render (default 1000)',
  ].join('\n'),
  async run(argv) {
    const { positionals, flags } = parseArgs(argv, ['vars', 'templates', 'timezone', 'timeout']);
    if (positionals.length !== 1) throw new UsageError('render takes exactly one template file');
    const file = positionals[0];
    try {
      const source = readText(file);
      const vars = typeof flags.get('vars') === 'string' ? readText(flags.get('vars') as string) : undefined;
      const engine = createEngine({
        workers: 1,
        templates: includeResolver(templateRoot(file, flags.get('templates'))),
        timezone: typeof flags.get('timezone') === 'string' ? (flags.get('timezone') as string) : undefined,
        timeoutMs: typeof flags.get('timeout') === 'string' ? Number(flags.get('timeout')) : undefined,
      });
      try {
        const r = await engine.render(source, { name: file, vars, objects: flags.has('objects') });
        for (const w of r.warnings) process.stderr.write(`${file}: warning: ${w}\n`);
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
      if (e instanceof SyntaxError) {
        process.stderr.write(`smartcage render: --vars is not valid JSON: ${e.message}\n`);
        return EXIT.USAGE;
      }
      throw e;
    }
  },
};
