import { statSync } from 'node:fs';
import { didYouMean, isOneOf, parseArgs, stringOption, UsageError } from '../args.js';
import { EXIT } from '../exit-codes.js';
import { compile } from '../../compiler/index.js';
import { dialectDepartures } from '../../compiler/compat.js';
import { DEFAULT_LIMITS } from '../../sandbox/limits.js';
import { includeResolver, readText, templateRoot, CliFileError } from './files.js';
import { findTemplates, MAX_TEMPLATES } from './find-templates.js';
import { Progress } from '../progress.js';
import type { CheckedFile } from '../report/checked.js';
import { textReport } from '../report/text.js';
import { jsonReport } from '../report/json.js';
import { sarifReport } from '../report/sarif.js';
import type { Command } from '../main.js';
import type { Diagnostic } from '../../errors.js';

const FORMATS = ['text', 'json', 'sarif'] as const;
type Format = (typeof FORMATS)[number];

export const checkCommand: Command = {
  name: 'check',
  summary: 'Compile templates and print their errors and warnings (exit 1 when any has an error).',
  usage: [
    'smartcage check FILE|DIR... [--format text|json|sarif] [--templates DIR] [--compat] [--quiet]',
    '',
    '  FILE              a template; - reads one from standard input',
    `  DIR               every *.tpl under the folder, sorted (at most ${MAX_TEMPLATES}); folders starting`,
    '                    with a dot and node_modules are skipped; links to folders, or out of the folder,',
    '                    are not followed',
    '  --format text     file:line:column: error CODE: message, and the lines around it (default)',
    '  --format json     one JSON document: { version, engine, files: [{ file, diagnostics }], summary }',
    "  --format sarif    one SARIF 2.1.0 log (GitHub code scanning, editors' SARIF viewers)",
    '  --templates DIR   folder that {include file=...} reads from (default: the folder checked, or the',
    "                    template's own folder)",
    '  --compat          also list, as W_DIALECT warnings, every place the template relies on a',
    '                    departure of the dialect from stock Smarty 2 (docs/dialect.md)',
    '  --quiet           errors only, no warnings',
    '',
    'Results go to standard output; progress, the summary line and unreadable files to standard error.',
    'Exit status: 0 no errors, 1 a template has errors, 2 wrong usage, 3 a file could not be read.',
  ].join('\n'),
  async run(argv) {
    const { positionals, values } = parseArgs(argv, {
      templates: { type: 'string' },
      quiet: { type: 'boolean' },
      compat: { type: 'boolean' },
      format: { type: 'string' },
    });
    const format = formatOption(stringOption(values, 'format'));
    if (positionals.length === 0) throw new UsageError('check needs at least one template file or folder');
    const templatesFlag = stringOption(values, 'templates');
    const targets = expand(positionals, templatesFlag);
    const progress = new Progress('checking', targets.length);
    const checked: CheckedFile[] = [];
    for (const target of targets) {
      const f =
        target.failure === undefined
          ? checkOne(target.file, target.root, values.quiet === true, values.compat === true)
          : { ...target, diagnostics: [], sources: new Map() };
      checked.push(f);
      progress.clear();
      if (f.failure !== undefined) process.stderr.write(`smartcage check: ${f.failure}\n`);
      else if (format === 'text') process.stdout.write(textReport(f));
      progress.tick();
    }
    progress.done();
    if (format === 'json') process.stdout.write(jsonReport(checked));
    if (format === 'sarif') process.stdout.write(sarifReport(checked, process.cwd()));
    const failed = checked.filter((f) => f.failure !== undefined).length;
    const withErrors = checked.filter((f) => f.diagnostics.some((d) => d.severity === 'error')).length;
    process.stderr.write(
      `${checked.length - withErrors - failed} of ${checked.length} template(s) compiled without errors\n`,
    );
    if (failed) return EXIT.IO;
    return withErrors ? EXIT.TEMPLATE_ERROR : EXIT.OK;
  },
};

function formatOption(value: string | undefined): Format {
  if (value === undefined) return 'text';
  if (isOneOf(FORMATS, value)) return value;
  const guess = didYouMean(value, FORMATS);
  throw new UsageError(`--format is text, json or sarif, not "${value}"${guess ? ` (did you mean ${guess}?)` : ''}`);
}

interface Target {
  file: string;
  root: string;
  /** Set for a folder under a checked one that could not be listed. */
  failure?: string;
}

/**
 * The files to check, a folder replaced by the templates under it (whose includes then resolve
 * in that folder); a link out of a folder is named on stderr. A path that does not exist, or a
 * folder that cannot be listed, stays, to be reported as unreadable.
 */
function expand(paths: readonly string[], templatesFlag: string | undefined): Target[] {
  const targets: Target[] = [];
  for (const path of paths) {
    if (path === '-' || !isFolder(path)) {
      targets.push({ file: path, root: templateRoot(path, templatesFlag) });
      continue;
    }
    const found = findTemplates(path, MAX_TEMPLATES - targets.length);
    for (const link of found.linksOut)
      process.stderr.write(`smartcage check: skipped ${link}: a link to outside ${path}\n`);
    // As a linter given a pattern that matches nothing: a moved folder must not pass a CI check.
    if (found.files.length === 0 && found.unreadable.length === 0)
      throw new UsageError(`no templates (*.tpl) in ${path}`);
    for (const file of found.files) targets.push({ file, root: templatesFlag ?? path });
    for (const u of found.unreadable) targets.push({ file: u.path, root: templatesFlag ?? path, failure: u.message });
  }
  return targets;
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function checkOne(file: string, root: string, quiet: boolean, compat: boolean): CheckedFile {
  const sources = new Map<string, string>();
  try {
    const source = readText(file);
    sources.set(file, source);
    const read = includeResolver(root);
    const templates = (name: string) => {
      const text = read(name);
      if (text !== undefined) sources.set(name, text);
      return text;
    };
    // The limits `render` compiles under, so a template check passes is one render compiles.
    const compiled = compile(source, {
      name: file,
      templates,
      maxTemplateChars: DEFAULT_LIMITS.maxTemplateBytes,
      maxCodeChars: DEFAULT_LIMITS.maxCodeChars,
      maxSourceChars: DEFAULT_LIMITS.maxTemplateBytes,
    }).diagnostics;
    // The departures of the file itself: an included template is listed when it is checked.
    const diagnostics = compat ? inOrder(file, [...compiled, ...dialectDepartures(source, file)]) : compiled;
    return {
      file,
      root,
      sources,
      diagnostics: quiet ? diagnostics.filter((d) => d.severity === 'error') : diagnostics,
    };
  } catch (e) {
    if (!(e instanceof CliFileError)) throw e;
    return { file, root, sources, diagnostics: [], failure: e.message };
  }
}

/** The file's own diagnostics by place, then those of its includes as the compile gave them. */
function inOrder(main: string, diagnostics: Diagnostic[]): Diagnostic[] {
  return diagnostics
    .map((d, i) => ({ d, i }))
    .sort(
      (a, b) =>
        Number(a.d.name !== main) - Number(b.d.name !== main) ||
        (a.d.name === main && b.d.name === main ? a.d.line - b.d.line || a.d.column - b.d.column : 0) ||
        a.i - b.i,
    )
    .map((x) => x.d);
}
