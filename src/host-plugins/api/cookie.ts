/**
 * {cookie}: entries of the one JSON cookie rcms_api_local (BR-11), through HostAdapters.cookies
 * (the request's cookie jar). The cookie comes from the browser, so reading it is parsing
 * untrusted JSON: anything that is not a JSON object reads as an empty store. Writing keeps the
 * cookie under browser limits: key grammar, at most MAX_ENTRIES entries, MAX_ENCODED bytes once
 * URL-encoded. In a batch there is no browser: the store is empty and writes are ignored.
 */
import { implement } from '../plugin-contract.js';
import { BridgeError } from '../../host-api/errors.js';
import { PhpArray, PhpObject, type Value } from '../../value/value.js';
import { jsonDecode } from '../../php/json/decode.js';
import { jsonEncode } from '../../php/json/encode.js';
import { keysContain, mapStrings } from './common.js';
import declaration from '../../plugins/host-api/cookie.js';

const COOKIE_NAME = 'rcms_api_local';
const MAX_ENTRIES = 30;
const MAX_ENCODED = 3800;
/** Starts with a letter or `_`: an all-digit key would turn the stored object into a JSON list. */
const KEY = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;
const RESERVED = new Set(['__proto__', 'constructor', 'prototype']);

function readStore(raw: string | null): PhpArray {
  if (raw === null || raw === '' || raw.length > 8192) return PhpArray.empty();
  const v = jsonDecode(raw, true);
  return v instanceof PhpArray ? v : PhpArray.empty();
}

export const cookie = implement(declaration, async (attrs, call, jar) => {
  const { requestId, context } = call.identity;
  const key = typeof attrs.key === 'string' ? attrs.key : null;
  const setting = attrs.value !== undefined && attrs.value !== null;
  if (key !== null && (!KEY.test(key) || RESERVED.has(key))) {
    throw new BridgeError(
      'E_BAD_ATTRIBUTE',
      `{cookie} key= must be 1..64 of A-Z a-z 0-9 _ - starting with a letter or _, and not a reserved name (${JSON.stringify(key.slice(0, 40))})`,
    );
  }
  const batch = context === 'batch';
  const store = batch ? PhpArray.empty() : readStore(await jar.get(requestId, COOKIE_NAME));

  if (!setting) {
    if (typeof attrs.var !== 'string')
      throw new BridgeError('E_BAD_ATTRIBUTE', '{cookie} needs value= to set or var= to read');
    return { assign: [[attrs.var, key === null ? store : store.has(key) ? store.get(key) : null]] };
  }
  if (key === null) throw new BridgeError('E_BAD_ATTRIBUTE', '{cookie} value= needs key=');
  let value: Value = attrs.value;
  if (value instanceof PhpObject) value = mapStrings(value, (s) => s);
  mapStrings(value, (s) => call.secrets.substitute(s, '{cookie}', () => false));
  if (keysContain(value, (k) => call.secrets.contains(k)))
    throw new BridgeError('E_SECRET_DENIED', 'a secret may not be used in {cookie}');
  if (batch) return { log: [{ level: 'warning', message: '{cookie} is ignored in a batch (no browser)' }] };
  if (attrs.overwrite === 0 && store.has(key)) return {};
  if (!store.has(key) && store.size >= MAX_ENTRIES)
    throw new BridgeError('E_QUOTA', `{cookie} the store holds at most ${MAX_ENTRIES} entries`);
  store.set(key, value);
  const json = jsonEncode(store);
  if (json === false) throw new BridgeError('E_BAD_ATTRIBUTE', '{cookie} value= cannot be stored as JSON');
  if (COOKIE_NAME.length + 1 + encodeURIComponent(json).length > MAX_ENCODED) {
    throw new BridgeError('E_SIZE_LIMIT', `{cookie} the store would exceed ${MAX_ENCODED} bytes`);
  }
  const days = typeof attrs.expires === 'number' && attrs.expires > 0 ? attrs.expires : null;
  await jar.set(requestId, COOKIE_NAME, json, days);
  return {};
});
