/**
 * `smartcage COMMAND ...`: the command-line interface. In every command standard output carries
 * only the results (what a pipe or a script reads) and standard error the rest: progress,
 * summaries, warnings and failures.
 */
import { didYouMean, UsageError } from './args.js';
import { EXIT } from './exit-codes.js';
import { quietOnClosedPipe } from './output.js';
import { renderCommand } from './commands/render.js';
import { checkCommand } from './commands/check.js';
import { compileCommand } from './commands/compile.js';
import { serveCommand } from './commands/serve.js';
import { formCommand } from './commands/form.js';
import { pluginsCommand } from './commands/plugins.js';
import { lspCommand } from './commands/lsp.js';
import { siteCommand } from './commands/site.js';
import { batchCommand } from './commands/batch.js';

export interface Command {
  name: string;
  summary: string;
  usage: string;
  /** A command with subcommands: the usage of the one `argv` names, when it names one. */
  usageFor?(argv: string[]): string | undefined;
  run(argv: string[]): Promise<number>;
}

const COMMANDS: Command[] = [
  renderCommand,
  checkCommand,
  compileCommand,
  serveCommand,
  formCommand,
  pluginsCommand,
  lspCommand,
  siteCommand,
  batchCommand,
];

export function mainHelp(): string {
  return [
    'smartcage: run Smarty 2 dialect templates in a sandbox (isolated-vm)',
    '',
    'Usage: smartcage COMMAND [options]',
    '',
    'Commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(10)} ${c.summary}`),
    '',
    'Run `smartcage COMMAND --help` for the options of a command.',
    '',
    'Exit status: 0 success, 1 template error, 2 wrong usage, 3 file error, 4 sandbox failure,',
    '5 serve stopped with requests cut.',
  ].join('\n');
}

export async function main(argv: string[]): Promise<number> {
  quietOnClosedPipe();
  const [name, ...rest] = argv;
  if (!name) {
    // No command is a usage error: its help is a failure's message, so it goes with failures.
    process.stderr.write(mainHelp() + '\n');
    return EXIT.USAGE;
  }
  if (name === '--help' || name === '-h' || name === 'help') {
    // `smartcage help render` is `smartcage render --help`; `help site ls` too.
    const about = name === 'help' ? COMMANDS.find((c) => c.name === rest[0]) : undefined;
    process.stdout.write(about ? helpOf(about, rest.slice(1)) : mainHelp() + '\n');
    return EXIT.OK;
  }
  if (name === '--version') {
    const { ENGINE_VERSION } = await import('../compiler/index.js');
    process.stdout.write(ENGINE_VERSION + '\n');
    return EXIT.OK;
  }
  const cmd = COMMANDS.find((c) => c.name === name);
  if (!cmd) {
    const guess = didYouMean(
      name,
      COMMANDS.map((c) => c.name),
    );
    process.stderr.write(
      `smartcage: unknown command "${name}"${guess ? ` (did you mean "${guess}"?)` : ''}\n\n${mainHelp()}\n`,
    );
    return EXIT.USAGE;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(helpOf(cmd, rest));
    return EXIT.OK;
  }
  try {
    return await cmd.run(rest);
  } catch (e) {
    if (e instanceof UsageError) {
      // A subcommand's mistake shows that subcommand's usage (`site put` with one argument).
      const sub = cmd.usageFor?.(rest);
      process.stderr.write(`smartcage ${cmd.name}: ${e.message}\n\n${sub ?? `Usage: ${cmd.usage}\n`}`);
      return EXIT.USAGE;
    }
    throw e;
  }
}

/** The help of a command, or of the subcommand `argv` names. */
function helpOf(cmd: Command, argv: string[]): string {
  const sub = cmd.usageFor?.(argv);
  return sub ? sub : `${cmd.summary}\n\nUsage: ${cmd.usage}\n`;
}
