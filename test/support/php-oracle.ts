/**
 * Calls real PHP (php-cli) as the oracle: one `php` process answers a whole batch of calls.
 * See scripts/oracle/call.php for the request and response format.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(new URL('../../scripts/oracle/call.php', import.meta.url));

export interface OracleCall {
  fn: string;
  args: unknown[];
  tz?: string;
}

export type Tagged =
  | null
  | boolean
  | { int: number | string }
  | { float: string }
  | { str: string }
  | { arr: [string | number, Tagged][] }
  | { obj: [string, Tagged][] };

export interface OracleResult {
  ok: boolean;
  value?: Tagged;
  out?: Tagged;
  error?: string;
  warnings?: string[];
}

export function phpAvailable(): boolean {
  try {
    execFileSync('php', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export function callPhp(calls: OracleCall[]): OracleResult[] {
  if (calls.length === 0) return [];
  const input = calls.map((c) => JSON.stringify(c)).join('\n') + '\n';
  const out = execFileSync('php', [SCRIPT], { input, maxBuffer: 256 * 1024 * 1024 }).toString('utf8');
  const lines = out.split('\n').filter((l) => l !== '');
  if (lines.length !== calls.length) throw new Error(`php oracle answered ${lines.length} of ${calls.length} calls`);
  return lines.map((l) => JSON.parse(l) as OracleResult);
}

/** Decodes a tagged string result into bytes. */
export function taggedBytes(t: Tagged): Buffer {
  if (t && typeof t === 'object' && 'str' in t) return Buffer.from(t.str, 'base64');
  throw new Error('not a string: ' + JSON.stringify(t));
}

import { PhpArray, PhpFloat, PhpObject, float, type Value } from '../../src/value/value.js';
import { fromBytes, isAscii, toBytes } from '../../src/value/bytes.js';
import { PhpTypeError } from '../../src/value/convert.js';

/** The oracle's tagged form back as our value (the inverse of toTagged). */
export function fromTagged(t: Tagged): Value {
  if (t === null || typeof t === 'boolean') return t;
  if ('int' in t) return typeof t.int === 'string' ? BigInt(t.int) : t.int;
  if ('float' in t) return float(Number(t.float));
  if ('str' in t) return fromBytes(new Uint8Array(Buffer.from(t.str, 'base64')));
  if ('arr' in t) return PhpArray.fromEntries(t.arr.map(([k, v]) => [k, fromTagged(v)] as const));
  const o = new PhpObject();
  for (const [k, v] of t.obj) o.set(String(k), fromTagged(v));
  return o;
}

/** A template value as an oracle argument (raw bytes for anything not ASCII). */
export function toArg(v: Value): unknown {
  if (v === undefined) return null;
  if (typeof v === 'string') return isAscii(v) ? v : { $bytes: Buffer.from(toBytes(v)).toString('base64') };
  if (v instanceof PhpFloat) return { $float: v.value };
  if (typeof v === 'bigint') return { $int: String(v) };
  if (typeof v === 'number' && !Number.isSafeInteger(v)) return { $float: v };
  if (v instanceof PhpArray) return { $assoc: v.entries().map(([k, x]) => [k, toArg(x)]) };
  if (v instanceof PhpObject) throw new Error('objects are passed with phpObjectCall');
  return v;
}

/** Our outcome in the oracle's terms: the tagged value, or 'error' where PHP throws a TypeError. */
export function outcome(f: () => Value): Tagged | 'error' {
  try {
    return toTagged(f());
  } catch (e) {
    if (e instanceof PhpTypeError) return 'error';
    throw e;
  }
}

/** Our value in the oracle's tagged form, so results compare with toEqual. */
export function toTagged(v: Value): Tagged {
  if (v === null || v === undefined || typeof v === 'boolean') return v ?? null;
  if (typeof v === 'number') {
    if (Number.isSafeInteger(v)) return { int: v };
    return { float: phpFloatRepr(v) };
  }
  // Digits past 2^53, as the oracle writes them (scripts/oracle/call.php).
  if (typeof v === 'bigint') return { int: String(v) };
  if (v instanceof PhpFloat) return { float: phpFloatRepr(v.value) };
  if (typeof v === 'string') return { str: Buffer.from(toBytes(v)).toString('base64') };
  if (v instanceof PhpArray)
    return { arr: v.entries().map(([k, x]) => [typeof k === 'bigint' ? String(k) : k, toTagged(x)]) };
  if (v instanceof PhpObject) return { obj: Array.from(v.props.entries()).map(([k, x]) => [k, toTagged(x)]) };
  throw new Error('not a template value');
}

/** var_export() of a float with serialize_precision=-1 (shortest round-trip digits, PHP's layout). */
export function phpFloatRepr(n: number): string {
  if (Number.isNaN(n)) return 'NAN';
  if (!Number.isFinite(n)) return n > 0 ? 'INF' : '-INF';
  if (n === 0) return Object.is(n, -0) ? '-0.0' : '0.0';
  const sign = n < 0 ? '-' : '';
  const e = Math.abs(n).toExponential(); // shortest digits that round-trip
  const [m, x] = e.split('e');
  const digits = m.replace('.', '');
  const decpt = Number(x) + 1;
  let out: string;
  if (decpt > 17 || decpt < -3) {
    out = `${digits[0]}.${digits.length > 1 ? digits.slice(1) : '0'}E${decpt - 1 < 0 ? '-' : '+'}${Math.abs(decpt - 1)}`;
  } else if (decpt <= 0) {
    out = `0.${'0'.repeat(-decpt)}${digits}`;
  } else if (digits.length <= decpt) {
    out = `${digits}${'0'.repeat(decpt - digits.length)}.0`;
  } else {
    out = `${digits.slice(0, decpt)}.${digits.slice(decpt)}`;
  }
  return sign + out;
}
