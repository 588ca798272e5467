/**
 * A template value as PHP's json_encode writes it: a list as a JSON array, any other array as an
 * object whose keys keep their order, a stdClass as an object, an integral float with `.0`. The
 * engine reads such text back as json_decode($text, true) does (RenderOptions.vars as JSON text),
 * so a batch's ext_data arrives in the batch template with the keys, their order and their int
 * or string types it was queued with; only a stdClass comes back as an array.
 */
import { PhpArray, PhpFloat, PhpObject, type Value } from '../../index.js';

export function phpJson(v: Value, depth = 0): string {
  if (depth > 64) throw new RangeError('a value nested deeper than 64 levels');
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  // JavaScript's shortest round-trip text of a float is PHP's (serialize_precision -1).
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : '0';
  if (typeof v === 'string') return JSON.stringify(v);
  if (v instanceof PhpFloat)
    return !Number.isFinite(v.value) ? '0' : /e/.test(String(v.value)) ? String(v.value) : `${v.value}.0`;
  const entries: [string, Value][] =
    v instanceof PhpObject ? [...v.props] : v.entries().map(([k, x]) => [String(k), x]);
  if (v instanceof PhpArray && entries.every(([k], i) => k === String(i)))
    return `[${entries.map(([, x]) => phpJson(x, depth + 1)).join(',')}]`;
  return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${phpJson(x, depth + 1)}`).join(',')}}`;
}
