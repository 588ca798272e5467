/**
 * `smartcage COMMAND ...`: the command-line interface. In every command standard output carries
 * only the results (what a pipe or a script reads) and standard error the rest: progress,
 * summaries, warnings and failures.
 */
import { didYouMean, UsageError } from './args.js';
import { EXIT } from './exit-codes.js';
import { quietOnClosedPipe } from './output.js';
export interface Command {
  name: string;
  summary: string;
  usage: string;
  /** A command with subcommands: the usage of the one `argv` names, when it names one. */
  usageFor?(argv: string[]): string | undefined;
  run(argv: string[]): Promise<number>;
}

/**
 * Each command is loaded when it runs: `render` does not pay for what `serve`, `lsp` or `site`
 * import (pino, prom-client, the language server, the site's database), D163. The names are
 * here so that an unknown command is told without loading any.
 */
const COMMANDS: Record<string, () => Promise<Command>> = {
  render: async () => (await import('./commands/render.js')).renderCommand,
  check: async () => (await import('./commands/check.js')).checkCommand,
  compile: async () => (await import('./commands/compile.js')).compileCommand,
  serve: async () => (await import('./commands/serve.js')).serveCommand,
  form: async () => (await import('./commands/form.js')).formCommand,
  plugins: async () => (await import('./commands/plugins.js')).pluginsCommand,
  lsp: async () => (await import('./commands/lsp.js')).lspCommand,
  site: async () => (await import('./commands/site.js')).siteCommand,
  batch: async () => (await import('./commands/batch.js')).batchCommand,
};
const NAMES = Object.keys(COMMANDS);

/** The command named `name`, loaded; undefined for a name that is no command. */
export function loadCommand(name: string): Promise<Command> | undefined {
  return Object.hasOwn(COMMANDS, name) ? COMMANDS[name]!() : undefined;
}

/** Every command, for the help that lists them (the one place that loads them all). */
function allCommands(): Promise<Command[]> {
  return Promise.all(NAMES.map((n) => COMMANDS[n]!()));
}

export async function mainHelp(): Promise<string> {
  const commands = await allCommands();
  return [
    'smartcage: run Smarty 2 dialect templates in a sandbox (isolated-vm)',
    '',
    'Usage: smartcage COMMAND [options]',
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(10)} ${c.summary}`),
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
    process.stderr.write((await mainHelp()) + '\n');
    return EXIT.USAGE;
  }
  if (name === '--help' || name === '-h' || name === 'help') {
    // `smartcage help render` is `smartcage render --help`; `help site ls` too.
    const about = name === 'help' && rest[0] !== undefined ? loadCommand(rest[0]) : undefined;
    process.stdout.write(about ? helpOf(await about, rest.slice(1)) : (await mainHelp()) + '\n');
    return EXIT.OK;
  }
  if (name === '--version') {
    const { ENGINE_VERSION } = await import('../compiler/index.js');
    process.stdout.write(ENGINE_VERSION + '\n');
    return EXIT.OK;
  }
  const loading = loadCommand(name);
  if (!loading) {
    const guess = didYouMean(name, NAMES);
    process.stderr.write(
      `smartcage: unknown command "${name}"${guess ? ` (did you mean "${guess}"?)` : ''}\n\n${await mainHelp()}\n`,
    );
    return EXIT.USAGE;
  }
  const cmd = await loading;
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
