/**
 * A render's variables as they cross into the isolate (RenderRequest.vars; D195): one tagged
 * union that says how they are encoded, where there were three optional fields (`vars` as data or
 * text or null, `plainVars`, `objects`) whose combinations the runtime had to guess between.
 *
 *   none         no variables
 *   plain        plain data, structured-cloned into the isolate and converted there (value/fromJS)
 *   json         an embedder's JSON text, read as PHP's json_decode reads it (php/json/decode.ts):
 *                key order kept ("2" after "b"), ints exact to 64 bits
 *   plain-json   plain data the host wrote as JSON text for the trip to a sandbox worker
 *                (src/sandbox/plain-json.ts): JSON.parse gives back what `plain` would have held
 *   tables       plain data whose lists of same-keyed rows the host wrote as tables, one array
 *                per key (./tables.ts): rebuilt in the isolate, it is what `plain` would have held
 *   tables-json  `tables` written as JSON text for the trip to a sandbox worker, when `plain-json`
 *                would carry the data (D296): fewer objects for the isolate's JSON.parse
 *
 * The names say what the host was given (data or text) and how it travels. `objects` (JSON
 * objects become stdClass objects, not arrays) belongs to each form that carries variables.
 *
 * The request is structured-cloned from the host, through a worker's frames too: `decodeVars`
 * reads it as unknown data and refuses any other shape with E_BAD_VARS, as ./transfer.ts does.
 */

export type RenderVars =
  | { format: 'none' }
  | { format: 'plain'; value: Record<string, unknown>; objects: boolean }
  | { format: 'json'; text: string; objects: boolean }
  | { format: 'plain-json'; text: string; objects: boolean }
  | { format: 'tables'; value: Record<string, unknown> }
  | { format: 'tables-json'; text: string };

export class VarsError extends Error {
  readonly code = 'E_BAD_VARS';
}

/** What an embedder passes (RenderOptions.vars and .objects), as it goes on the wire. */
export function renderVars(vars: Record<string, unknown> | string | null | undefined, objects = false): RenderVars {
  if (typeof vars === 'string') return { format: 'json', text: vars, objects };
  if (vars === null || vars === undefined) return { format: 'none' };
  return { format: 'plain', value: vars, objects };
}

function namesOf(value: unknown, format: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new VarsError(`${format} variables must be an object of names`);
  return value as Record<string, unknown>;
}

function textOf(text: unknown, format: string): string {
  if (typeof text !== 'string') throw new VarsError(`${format} variables come without their text`);
  return text;
}

/** `x` as RenderVars, checked field by field; anything else is a VarsError. */
export function decodeVars(x: unknown): RenderVars {
  if (typeof x !== 'object' || x === null) throw new VarsError('the variables come in no known format');
  const v = x as Record<string, unknown>;
  const format = v.format;
  if (format === 'none') return { format };
  if (format === 'tables') return { format, value: namesOf(v.value, 'tables') };
  if (format === 'tables-json') return { format, text: textOf(v.text, format) };
  const objects = v.objects;
  if (typeof objects !== 'boolean') throw new VarsError('the variables come without their objects flag');
  if (format === 'plain') return { format, value: namesOf(v.value, 'plain'), objects };
  if (format === 'json' || format === 'plain-json') return { format, text: textOf(v.text, format), objects };
  throw new VarsError(`the variables come in an unknown format ${JSON.stringify(String(format)).slice(0, 40)}`);
}
