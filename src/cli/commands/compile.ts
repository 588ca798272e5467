import { parseArgs, stringOption, UsageError } from '../args.js';
import { EXIT } from '../exit-codes.js';
import { compile } from '../../compiler/index.js';
import { formatDiagnostic } from '../../errors.js';
import { includeResolver, readText, templateRoot, CliFileError } from './files.js';
import type { Command } from '../main.js';

export const compileCommand: Command = {
  name: 'compile',
  summary: 'Print the JavaScript a template compiles to (and its manifest with --manifest).',
  usage: [
    'smartcage compile FILE [--templates DIR] [--manifest]',
    '',
    '  --manifest   print the manifest (memory class, plugins, line table) as JSON instead',
  ].join('\n'),
  async run(argv) {
    const { positionals, values } = parseArgs(argv, { templates: { type: 'string' }, manifest: { type: 'boolean' } });
    if (positionals.length !== 1) throw new UsageError('compile takes exactly one template file');
    const file = positionals[0]!;
    try {
      const r = compile(readText(file), {
        name: file,
        templates: includeResolver(templateRoot(file, stringOption(values, 'templates'))),
      });
      for (const d of r.diagnostics) process.stderr.write(formatDiagnostic(d) + '\n');
      if (r.diagnostics.some((d) => d.severity === 'error')) return EXIT.TEMPLATE_ERROR;
      process.stdout.write(values.manifest === true ? JSON.stringify(r.manifest, null, 2) + '\n' : r.code);
      return EXIT.OK;
    } catch (e) {
      if (e instanceof CliFileError) {
        process.stderr.write(`smartcage compile: ${e.message}\n`);
        return EXIT.IO;
      }
      throw e;
    }
  },
};
