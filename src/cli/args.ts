/** A small argument reader: positionals, `--flag`, `--name value` and `--name=value`. */
export interface Parsed {
  positionals: string[];
  flags: Map<string, string | true>;
}

export class UsageError extends Error {}

export function parseArgs(argv: string[], valued: readonly string[]): Parsed {
  const positionals: string[] = [];
  const flags = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const name = eq > 0 ? a.slice(2, eq) : a.slice(2);
      if (eq > 0) flags.set(name, a.slice(eq + 1));
      else if (valued.includes(name)) {
        if (i + 1 >= argv.length) throw new UsageError(`--${name} needs a value`);
        flags.set(name, argv[++i]);
      } else flags.set(name, true);
    } else if (a === '-h') flags.set('help', true);
    else positionals.push(a);
  }
  return { positionals, flags };
}
