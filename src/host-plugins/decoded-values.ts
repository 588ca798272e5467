/**
 * How many values the host may make of one item it decodes for a template (decisions.md D337,
 * D340): a CSV record or JSON line of {read_file}, a JSON answer of {api} or {api_internal}. The
 * host decodes on the embedding thread in one synchronous run, so one item is held to what one
 * host call may carry the other way (MAX_REQUEST_VALUES, D321): a bound a JSON text is checked
 * against before it is decoded, from its characters alone.
 */
import { MAX_REQUEST_VALUES } from '../protocol/transfer.js';
import { BridgeError } from '../host-api/errors.js';
import { jsonDecode } from '../php/json/decode.js';
import type { Value } from '../value/value.js';

export const MAX_ITEM_VALUES = MAX_REQUEST_VALUES;

/**
 * At most the values `json` decodes to: one, and one more for each `,`, `[` and `{` it holds
 * (inside strings too, so text with many commas counts more than it decodes to).
 */
export function jsonValuesBound(json: string): number {
  let n = 1;
  for (let i = 0; i < json.length; i++) {
    const c = json.charCodeAt(i);
    if (c === 0x2c || c === 0x5b || c === 0x7b) n++;
  }
  return n;
}

/**
 * An API's JSON answer decoded as json_decode($text, true) does, refused (E_SIZE_LIMIT) before
 * any decoding when it may hold more than MAX_ITEM_VALUES values. `what` names it in the error.
 */
export function decodeBoundedJson(text: string, what: string): Value {
  if (jsonValuesBound(text) > MAX_ITEM_VALUES)
    throw new BridgeError('E_SIZE_LIMIT', `${what} may hold more than ${MAX_ITEM_VALUES} values`);
  return jsonDecode(text, true);
}
