/**
 * Who may back up and delete backups, and the bounds of {backup}: a batch, the admin test screen,
 * or a web render of a super user (D101); at most MAX_BACKUPS kept and one per
 * BACKUP_INTERVAL_SECONDS per site (BR-15).
 */
import type { BridgeCall } from '../plugin-contract.js';
import type { BackupsAdapter } from '../../host-api/adapters/backups.js';
import { BridgeError } from '../../host-api/errors.js';
import { missingAdapter } from '../../host-api/capabilities.js';

export const MAX_BACKUPS = 10;
export const BACKUP_INTERVAL_SECONDS = 600;

export function backupsFor(call: BridgeCall, plugin: string): BackupsAdapter {
  const adapter = call.host.backups;
  if (!adapter) throw missingAdapter(`{${plugin}}`, 'backups');
  const { context, superUser } = call.identity;
  if (context === 'web' && !superUser)
    throw new BridgeError('E_PERMISSION_DENIED', `{${plugin}} runs in a batch, in the admin test, or for a super user`);
  return adapter;
}
