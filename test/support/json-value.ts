/**
 * JSON text as template values with PHP's key order (json_decode($text, true)), for tests that read
 * recorded answers: a text json_decode refuses fails the test, where json_decode would give null.
 */
import { jsonErrorMessage, parseJson } from '../../src/php/json/decode.js';
import type { Value } from '../../src/value/value.js';

export function jsonValue(text: string): Value {
  const r = parseJson(text);
  if (!r.ok) throw new Error(`invalid JSON at offset ${r.offset}: ${jsonErrorMessage(r.error)}`);
  return r.value;
}
