/**
 * Strict command-line options (node's util.parseArgs with strict: true): an unknown option, an
 * option without its value or a value where none is taken is a usage error (exit 2), with a
 * did-you-mean for typos, never silently ignored.
 */
import { parseArgs as parseNodeArgs } from 'node:util';
import { editDistance } from '../text/edit-distance.js';
import { nodeErrorCode } from './caught.js';

/** `multiple`: the option may repeat; its value is then the list of every value given. */
export type OptionSpec = Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }>;

export interface Parsed {
  positionals: string[];
  values: Record<string, string | boolean | string[] | boolean[] | undefined>;
}

export class UsageError extends Error {}

export function parseArgs(argv: string[], options: OptionSpec): Parsed {
  try {
    const r = parseNodeArgs({ args: argv, options, strict: true, allowPositionals: true });
    return { positionals: r.positionals, values: r.values as Parsed['values'] };
  } catch (e) {
    const code = nodeErrorCode(e);
    const message = e instanceof Error ? e.message : String(e);
    const name = /'(-{1,2}[^' ]+)/.exec(message)?.[1] ?? '';
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
      const guess = didYouMean(name.replace(/^-+/, ''), Object.keys(options));
      throw new UsageError(`unknown option ${name}${guess ? ` (did you mean --${guess}?)` : ''}`);
    }
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
      const opt = name.replace(/^-+/, '');
      throw new UsageError(options[opt]?.type === 'boolean' ? `${name} takes no value` : `${name} needs a value`);
    }
    throw new UsageError(message);
  }
}

/** Whether `v` is one of `choices`: a guard, so a checked option comes out typed without a cast. */
export const isOneOf = <T extends string>(choices: readonly T[], v: string): v is T => choices.some((c) => c === v);

/** The closest candidate within two edits (or of which the word is a prefix), if any. */
export function didYouMean(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = 3;
  for (const c of candidates) {
    const d = c.startsWith(word) && word.length >= 2 ? 1 : editDistance(word, c);
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return best;
}

/** A string option's value, or undefined. */
export function stringOption(values: Parsed['values'], name: string): string | undefined {
  const v = values[name];
  return typeof v === 'string' ? v : undefined;
}

/** A positive whole number of milliseconds (or other units), or a usage error naming the option. */
export function positiveIntOption(values: Parsed['values'], name: string): number | undefined {
  const v = stringOption(values, name);
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!/^\d+$/.test(v) || !Number.isSafeInteger(n) || n <= 0)
    throw new UsageError(`--${name} needs a positive whole number, not "${v}"`);
  return n;
}

/** An IANA time zone the runtime knows, or a usage error. */
export function timeZoneOption(values: Parsed['values'], name: string): string | undefined {
  const v = stringOption(values, name);
  if (v === undefined) return undefined;
  try {
    new Intl.DateTimeFormat('en', { timeZone: v });
  } catch {
    throw new UsageError(`--${name}: unknown time zone "${v}" (an IANA name such as Asia/Tokyo or UTC)`);
  }
  return v;
}
