import { parseArgs, stringOption, UsageError } from '../args.js';
import { EXIT } from '../exit-codes.js';
import { compile } from '../../compiler/index.js';
import { formatDiagnostic } from '../../errors.js';
import { includeResolver, readText, templateRoot, CliFileError } from './files.js';
import { Progress } from '../progress.js';
import type { Command } from '../main.js';

export const checkCommand: Command = {
  name: 'check',
  summary: 'Compile templates and print their errors and warnings (exit 1 when any has an error).',
  usage: ['smartcage check FILE... [--templates DIR] [--quiet]', '', '  --quiet   print errors only, not warnings'].join('\n'),
  async run(argv) {
    const { positionals, values } = parseArgs(argv, { templates: { type: 'string' }, quiet: { type: 'boolean' } });
    if (positionals.length === 0) throw new UsageError('check needs at least one template file');
    const progress = new Progress('checking', positionals.length);
    let errors = 0;
    let ioErrors = 0;
    for (const file of positionals) {
      try {
        const source = readText(file);
        const { diagnostics } = compile(source, { name: file, templates: includeResolver(templateRoot(file, stringOption(values, 'templates'))) });
        for (const d of diagnostics) {
          if (d.severity === 'warning' && values.quiet === true) continue;
          progress.clear();
          process.stdout.write(formatDiagnostic(d) + '\n');
        }
        if (diagnostics.some((d) => d.severity === 'error')) errors++;
      } catch (e) {
        if (!(e instanceof CliFileError)) throw e;
        progress.clear();
        process.stderr.write(`smartcage check: ${e.message}\n`);
        ioErrors++;
      }
      progress.tick();
    }
    progress.done();
    const ok = positionals.length - errors - ioErrors;
    process.stderr.write(`${ok} of ${positionals.length} template(s) compiled without errors\n`);
    if (ioErrors) return EXIT.IO;
    return errors ? EXIT.TEMPLATE_ERROR : EXIT.OK;
  },
};
