import { implement } from '../plugin-contract.js';
import { BridgeError } from '../../host-api/errors.js';
import declaration from '../../plugins/host-secrets/secret.js';

const NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/**
 * {secret var=s key=NAME}: assigns a handle for the tenant's secret NAME (see secret-handles.ts).
 * A name outside the grammar, a missing secret and another tenant's secret give the same error.
 */
export const secret = implement(declaration, async (attrs, call, secrets) => {
  const name = attrs.key;
  const record = NAME.test(name) ? await secrets.get(name) : null;
  if (!record) throw new BridgeError('E_SECRET_NOT_FOUND', `no secret named "${name.slice(0, 128)}"`);
  return { assign: [[String(attrs.var), call.secrets.issue(name, record)]] };
});
