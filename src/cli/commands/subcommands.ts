/** A command made of subcommands (`site init|put|get|restore`, `batch run|list|history`), each with its own usage. */
import { UsageError } from '../args.js';
import type { Command } from '../main.js';

export interface Subcommand {
  name: string;
  summary: string;
  usage: string;
  run(argv: string[]): Promise<number>;
}

export function commandOf(name: string, summary: string, subs: readonly Subcommand[]): Command {
  const width = Math.max(...subs.map((s) => s.name.length)) + 1;
  return {
    name,
    summary,
    usage: [
      'SUBCOMMAND ...',
      '',
      'Subcommands:',
      ...subs.map((s) => `  ${s.name.padEnd(width)} ${s.summary}`),
      '',
      `Run \`smartcage ${name} SUBCOMMAND --help\` for its options.`,
    ].join('\n'),
    usageFor(argv) {
      const sub = subs.find((s) => s.name === argv[0]);
      return sub && `${sub.summary}\n\nUsage: ${sub.usage}\n`;
    },
    async run(argv) {
      const [first, ...rest] = argv;
      const sub = subs.find((s) => s.name === first);
      if (!sub)
        throw new UsageError(
          first
            ? `unknown ${name} subcommand "${first}" (${subs.map((s) => s.name).join(', ')})`
            : `${name} needs a subcommand (${subs.map((s) => s.name).join(', ')})`,
        );
      return sub.run(rest);
    },
  };
}
