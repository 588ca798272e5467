/**
 * The render's variables into its scope, from whichever form they came in (protocol/vars.ts).
 * JSON text is read by the one JSON→PHP parser (php/json/decode.ts) exactly as PHP's
 * json_decode($text, !$objects) reads it, to the default depth of 512: key order kept ("2" after
 * "b", which JSON.parse cannot do), ints exact to 64 bits, floats beyond. Where json_decode would
 * give null the render fails with E_BAD_VARS, naming PHP's error and where it is in the text.
 */
import { fromJS, PhpArray, PhpObject, type Value } from '../value/value.js';
import type { Scope } from '../value/assign.js';
import { decodeVars, VarsError } from '../protocol/vars.js';
import { fromVars } from '../value/tables.js';
import { jsonErrorMessage, parseJson } from '../php/json/decode.js';

/** Puts the variables of `wire` (a RenderRequest's `vars`, unchecked) into `scope`. */
export function readVars(wire: unknown, scope: Scope): void {
  const vars = decodeVars(wire);
  switch (vars.format) {
    case 'none':
      return;
    case 'plain':
      return fromPlain(vars.value, vars.objects, scope);
    case 'tables':
      return fromTables(vars.value, scope);
    case 'tables-json':
      return fromTables(JSON.parse(vars.text) as Record<string, unknown>, scope);
    case 'plain-json':
      return fromPlain(JSON.parse(vars.text) as Record<string, unknown>, vars.objects, scope);
    case 'json':
      for (const [k, v] of parseVarsJson(vars.text, vars.objects)) scope[k] = v;
      return;
  }
}

function fromTables(data: Record<string, unknown>, scope: Scope): void {
  for (const [k, v] of Object.entries(data)) scope[k] = fromVars(v);
}

function fromPlain(data: Record<string, unknown>, objects: boolean, scope: Scope): void {
  for (const [k, v] of Object.entries(data)) scope[k] = fromJS(v, objects);
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
