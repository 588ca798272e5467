/** The service account a cloud plugin signs with: `sa_secret_name`, or the cloud settings' default. */
import type { BridgeCall } from '../plugin-contract.js';
import type { CloudSettings } from '../../host-api/adapters/integrations.js';
import type { Value } from '../../value/value.js';
import { BridgeError } from '../../host-api/errors.js';
import { settingsOf } from './common.js';
import { serviceAccount, type ServiceAccount } from './service-account.js';

export async function cloudAccount(
  call: BridgeCall,
  plugin: string,
  attr: Value,
): Promise<{ settings: CloudSettings; sa: ServiceAccount }> {
  const settings = await settingsOf(call, plugin, 'cloud');
  const name = typeof attr === 'string' && attr !== '' ? attr : settings.saSecret;
  if (name === null)
    throw new BridgeError(
      'E_BAD_ATTRIBUTE',
      `{${plugin}} needs sa_secret_name= (the site's cloud settings name no default service account)`,
    );
  return { settings, sa: await serviceAccount(call, plugin, name) };
}
