/** Our values as oracle arguments, and a one-call-per-case comparison helper. */
import { toBytes } from '../../src/value/bytes.js';
import { PhpArray, PhpFloat, type Value } from '../../src/value/value.js';
import { callPhp, toTagged, type OracleCall, type Tagged } from './php-oracle.js';
import { phpGolden } from './php-golden.js';

export function arg(v: Value): unknown {
  if (v instanceof PhpFloat) return floatArg(v.value);
  if (typeof v === 'number' && !Number.isFinite(v)) return floatArg(v);
  // JSON numbers are doubles to JavaScript: an int past 2^53 goes as its digits.
  if (typeof v === 'bigint') return { $int: String(v) };
  if (typeof v === 'number' && Number.isInteger(v) && !Number.isSafeInteger(v)) return floatArg(v);
  if (v instanceof PhpArray) return { $assoc: v.entries().map(([k, x]) => [k, arg(x)]) };
  // Stray bytes (bytes.ts keeps them as lone surrogates) go as the bytes: JSON cannot carry them.
  if (typeof v === 'string' && !v.isWellFormed()) return { $bytes: Buffer.from(toBytes(v)).toString('base64') };
  return v ?? null;
}

function floatArg(n: number): unknown {
  if (Number.isNaN(n)) return { $const: 'NAN' };
  if (n === Infinity) return { $const: 'INF' };
  // JSON loses the sign of zero; call.php casts the string back with (float).
  if (Object.is(n, -0)) return { $float: '-0' };
  if (n === -Infinity) throw new Error('-INF cannot be passed to the oracle');
  return { $float: n };
}

export interface Case {
  fn: string;
  args: Value[];
  tz?: string;
  ours: () => Value;
}

export interface Mismatch {
  fn: string;
  args: unknown[];
  tz?: string;
  php: Tagged | string;
  ours: Tagged | string;
}

/**
 * Runs every case through ours and compares with PHP: live PHP (one process) for the seeded
 * random tests, or the committed fixture test/fixtures/php/<golden>.json for hand tables.
 */
export function compareWithPhp(cases: Case[], golden?: string): Mismatch[] {
  const calls: OracleCall[] = cases.map((c) => ({ fn: c.fn, args: c.args.map(arg), ...(c.tz ? { tz: c.tz } : {}) }));
  const results = golden === undefined ? callPhp(calls) : phpGolden(golden, calls);
  const bad: Mismatch[] = [];
  cases.forEach((c, i) => {
    const r = results[i];
    const php: Tagged | string = r.ok ? (r.value as Tagged) : 'ERROR';
    let ours: Tagged | string;
    try {
      ours = toTagged(c.ours());
    } catch (e) {
      ours = e instanceof Error && e.constructor.name === 'PhpTypeError' ? 'ERROR' : `CRASH ${String(e)}`;
    }
    if (JSON.stringify(canonical(php)) !== JSON.stringify(canonical(ours)))
      bad.push({ fn: c.fn, args: calls[i].args, tz: c.tz, php, ours });
  });
  return bad;
}

/** A readable form of a mismatch (strings decoded). */
function show(m: Mismatch): string {
  const dec = (t: Tagged | string) =>
    typeof t === 'object' && t !== null && 'str' in t
      ? JSON.stringify(Buffer.from(t.str, 'base64').toString('utf8'))
      : JSON.stringify(t);
  return `${m.fn}(${JSON.stringify(m.args)})${m.tz ? ' @' + m.tz : ''}: php=${dec(m.php)} ours=${dec(m.ours)}`;
}

/** Fails with every difference listed (vitest's diff output truncates long arrays). */
export function expectAgreement(bad: Mismatch[]): void {
  if (bad.length > 0) throw new Error(`${bad.length} differences from php:\n` + bad.slice(0, 40).map(show).join('\n'));
}

/**
 * Floats compared by value: test/support's phpFloatRepr switches to exponent notation at
 * 1e15 where var_export waits until 1e17, which is a difference of printing, not of value.
 */
function canonical(t: Tagged | string): Tagged | string {
  if (t && typeof t === 'object' && 'float' in t && !['INF', '-INF', 'NAN'].includes(t.float)) {
    const n = Number(t.float);
    return { float: Object.is(n, -0) ? '-0' : String(n) };
  }
  if (t && typeof t === 'object' && 'arr' in t) return { arr: t.arr.map(([k, v]) => [k, canonical(v) as Tagged]) };
  return t;
}
