/**
 * The command line every bench script shares: `--help` prints the help (exit 0), a usage error
 * prints its line and the help (exit 2), a failure prints one line (exit 1), never a stack.
 */

/** A wrong option or value: the script's help follows the message. */
export class UsageError extends Error {}

/** `flag`'s value as a whole number >= 1, or a usage error naming the flag. */
export function wholeNumber(flag: string, value: string | undefined): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`${flag} needs a whole number >= 1`);
  return n;
}

/**
 * Runs `body` with the options `parse` read from the command line (`null`: help was asked for)
 * and exits with its code.
 */
export function runBench<O>(
  name: string,
  help: string,
  parse: (argv: string[]) => O | null,
  body: (opts: O) => Promise<number>,
): void {
  const main = async (): Promise<number> => {
    let opts: O | null;
    try {
      opts = parse(process.argv.slice(2));
    } catch (e) {
      if (!(e instanceof UsageError)) throw e;
      console.error(`${name}: ${e.message}\n\n${help}`);
      return 2;
    }
    if (!opts) {
      console.log(help);
      return 0;
    }
    return body(opts);
  };
  main().then(
    (code) => process.exit(code),
    (e) => {
      console.error(`${name}: ${e instanceof Error ? e.message : String(e)}`);
      process.exit(1);
    },
  );
}
