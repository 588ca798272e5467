import { implement } from '../plugin-contract.js';
import { BridgeError } from '../../host-api/errors.js';
import declaration from '../../plugins/host-request/assign_globals.js';

/**
 * {assign_globals}: values shared between the custom processes of one request, scoped to
 * (tenant, request): key+value sets, var+key reads into var, unset=true clears. What is kept,
 * for how long and how much: src/bridge/request-globals.ts.
 */
export const assignGlobals = implement(declaration, async (attrs, call) => {
  const key = attrs.key === undefined || attrs.key === null ? null : String(attrs.key);
  const store = call.requestGlobals;
  if (attrs.unset === true) {
    if (key === null) store.clear();
    else store.delete(key);
    return {};
  }
  if (key === null) throw new BridgeError('E_BAD_ATTRIBUTE', '{assign_globals} needs key');
  if (attrs.value !== undefined && attrs.value !== null) {
    // Sizes and key counts are checked by the store (E_QUOTA).
    store.set(key, attrs.value);
    return {};
  }
  if (attrs.var === undefined || attrs.var === null)
    throw new BridgeError('E_BAD_ATTRIBUTE', '{assign_globals} needs value= to set or var= to read');
  return { assign: [[String(attrs.var), store.get(key)]] };
});
