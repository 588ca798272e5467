/**
 * Runs preg_* calls through our implementation and through live PHP, and reports every
 * difference (return value, $matches or preg_replace's $count, and whether a warning was raised).
 */
import { callPhp, toTagged, type OracleCall, type OracleResult, type Tagged } from '../../support/php-oracle.js';
import { PhpTypeError } from '../../../src/value/convert.js';
import { toBytes } from '../../../src/value/bytes.js';
import { PhpArray, type Value } from '../../../src/value/value.js';
import { pregGrep, pregMatch, pregMatchAll, pregQuote, pregReplace, pregSplit } from '../../../src/php/pcre/preg.js';

type PregFn = 'preg_match' | 'preg_match_all' | 'preg_replace' | 'preg_split' | 'preg_quote' | 'preg_grep';

export interface PregCall {
  fn: PregFn;
  args: Value[];
}

interface Outcome {
  value: Tagged;
  out?: Tagged;
  warned: boolean;
}

function runOurs(call: PregCall): Outcome {
  const warnings: string[] = [];
  const warn = (m: string) => warnings.push(m);
  const a = call.args;
  switch (call.fn) {
    case 'preg_match':
    case 'preg_match_all': {
      const f = call.fn === 'preg_match' ? pregMatch : pregMatchAll;
      const r = f(a[0], a[1], a[2] ?? 0, a[3] ?? 0, warn);
      return { value: toTagged(r.result), out: toTagged(r.matches), warned: warnings.length > 0 };
    }
    case 'preg_replace': {
      const r = pregReplace(a[0], a[1], a[2], a[3] ?? -1, warn);
      // The same call with no count asked for, as the modifiers make it, may take the native
      // replace (D378): its result must be the counted one's.
      const uncounted = pregReplace(a[0], a[1], a[2], a[3] ?? -1, () => {}, false).result;
      if (JSON.stringify(toTagged(uncounted)) !== JSON.stringify(toTagged(r.result)))
        return { value: toTagged(`uncounted: ${JSON.stringify(toTagged(uncounted))}`), warned: false };
      return { value: toTagged(r.result), out: toTagged(r.count), warned: warnings.length > 0 };
    }
    case 'preg_split':
      return { value: toTagged(pregSplit(a[0], a[1], a[2] ?? -1, a[3] ?? 0, warn)), warned: warnings.length > 0 };
    case 'preg_quote':
      return { value: toTagged(pregQuote(a[0], a[1] ?? null)), warned: false };
    case 'preg_grep':
      return { value: toTagged(pregGrep(a[0], a[1], a[2] ?? 0, warn)), warned: warnings.length > 0 };
  }
}

/** Our value as an oracle argument: strings as raw bytes, arrays with their keys. */
function oracleArg(v: Value): unknown {
  if (typeof v === 'string') return { $bytes: Buffer.from(toBytes(v)).toString('base64') };
  if (v instanceof PhpArray) return { $assoc: v.entries().map(([k, x]) => [k, oracleArg(x)]) };
  return v;
}

export function describe(call: PregCall): string {
  return `${call.fn}(${call.args.map((a) => (a instanceof PhpArray ? JSON.stringify(a.values()) : JSON.stringify(a))).join(', ')})`;
}

export function oracleCall(c: PregCall): OracleCall {
  return { fn: c.fn, args: c.args.map(oracleArg) };
}

/** Every call where we differ from PHP, with both results (PHP's answers given, or asked live). */
export function differences(calls: PregCall[], answers?: OracleResult[]): string[] {
  const oracle = answers ?? callPhp(calls.map(oracleCall));
  const diffs: string[] = [];
  calls.forEach((call, i) => {
    const php = oracle[i];
    let ours: Outcome;
    try {
      ours = runOurs(call);
    } catch (e) {
      // PHP's TypeError/ValueError is our PhpTypeError with the same message.
      if (e instanceof PhpTypeError && !php.ok && php.error?.replace(/^\w+Error: /, '') === e.message) return;
      diffs.push(`${describe(call)}: we threw ${(e as Error).message}; php ${JSON.stringify(php)}`);
      return;
    }
    if (!php.ok) {
      diffs.push(`${describe(call)}: php threw ${php.error}`);
      return;
    }
    const phpOut = {
      value: php.value,
      out: call.fn.startsWith('preg_match') || call.fn === 'preg_replace' ? php.out : undefined,
      warned: (php.warnings ?? []).length > 0,
    };
    if (JSON.stringify(phpOut) !== JSON.stringify({ value: ours.value, out: ours.out, warned: ours.warned })) {
      diffs.push(`${describe(call)}:\n  php  ${JSON.stringify(phpOut)}\n  ours ${JSON.stringify(ours)}`);
    }
  });
  return diffs;
}
