/**
 * Variables given as JSON text, read by the one JSON→PHP parser (php/json/decode.ts) exactly as
 * PHP's json_decode($text, !$objects) reads them, to the default depth of 512: key order kept
 * ("2" after "b", which JSON.parse cannot do), ints exact to 64 bits, floats beyond. Where
 * json_decode would give null the render fails with E_BAD_VARS, naming PHP's error and where it is.
 */
import { PhpArray, PhpObject, type Value } from '../value/value.js';
import { jsonErrorMessage, parseJson } from '../php/json/decode.js';

export class VarsError extends Error {
  readonly code = 'E_BAD_VARS';
}

/** The variables of JSON text (an object of names), in order. */
export function parseVarsJson(text: string, objects: boolean): Map<string, Value> {
  const r = parseJson(text, { objects });
  if (!r.ok) throw new VarsError(`the variables' JSON text: ${jsonErrorMessage(r.error)} at offset ${r.offset}`);
  const out = new Map<string, Value>();
  const v = r.value;
  if (v instanceof PhpArray) for (const [k, x] of v.entries()) out.set(String(k), x);
  else if (v instanceof PhpObject) for (const [k, x] of v.props) out.set(k, x);
  else throw new VarsError('the variables must be a JSON object');
  return out;
}
