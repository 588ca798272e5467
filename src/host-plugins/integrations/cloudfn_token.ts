/**
 * {cloudfn_token}: an ID token whose audience is the function's URL, for calling a cloud
 * function with `Authorization: Bearer` (through {api}). The service account's signed assertion
 * (target_audience = url) is exchanged at the cloud settings' token endpoint (docs/decisions.md
 * D112). var receives the token, or false when the token endpoint refuses or fails.
 */
import { implement } from '../plugin-contract.js';
import { BridgeError } from '../../host-api/errors.js';
import { orFalse } from './common.js';
import { cloudAccount } from './cloud.js';
import { serviceToken } from './service-account.js';
import declaration from '../../plugins/host-integrations/cloudfn_token.js';

const PLUGIN = 'cloudfn_token';

function functionUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new BridgeError('E_BAD_URL', `{${PLUGIN}} url= is not a URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new BridgeError('E_BAD_URL', `{${PLUGIN}} url= must be an http(s) URL`);
  if (url.username !== '' || url.password !== '')
    throw new BridgeError('E_BAD_URL', `{${PLUGIN}} url= may not carry a user name or password`);
  return text;
}

export const cloudfnToken = implement(declaration, (attrs, call) =>
  orFalse(PLUGIN, attrs.var, async () => {
    const url = String(attrs.url);
    if (call.secrets.contains(url))
      throw new BridgeError('E_SECRET_DENIED', `{${PLUGIN}} a secret may not be used in url=`);
    const audience = functionUrl(url);
    const { settings, sa } = await cloudAccount(call, PLUGIN, attrs.sa_secret_name);
    const token = await serviceToken(call, PLUGIN, sa, settings.tokenUrl, { audience });
    return { assign: [[String(attrs.var), token]] };
  }),
);
