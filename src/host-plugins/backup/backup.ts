/**
 * {backup type="full"}: a full backup of the site now (its database rows and files), through
 * HostAdapters.backups; result_var gets the backup's record. Refused beyond MAX_BACKUPS kept
 * (E_QUOTA) and within BACKUP_INTERVAL_SECONDS of the last (E_RATE_LIMIT).
 */
import { implement } from '../plugin-contract.js';
import { BridgeError } from '../../host-api/errors.js';
import { checkBackupBounds } from '../../host-api/adapters/backups.js';
import { PhpArray, type Value } from '../../value/value.js';
import { phpDate } from '../../php/date/date.js';
import { BACKUP_INTERVAL_SECONDS, MAX_BACKUPS, backupsFor } from './common.js';
import declaration from '../../plugins/host-backup/backup.js';

export const backup = implement(declaration, async (attrs, call) => {
  const adapter = backupsFor(call, 'backup');
  const memo = typeof attrs.memo === 'string' ? attrs.memo : '';
  if (memo.length > 200) throw new BridgeError('E_BAD_ATTRIBUTE', '{backup} memo= is longer than 200 characters');
  if (call.secrets.contains(memo))
    throw new BridgeError('E_SECRET_DENIED', 'a secret may not be used in {backup} memo=');
  const bounds = { maxKept: MAX_BACKUPS, intervalSeconds: BACKUP_INTERVAL_SECONDS };
  // Checked here for every store, and again by a shared store as it claims the backup (D339, BR-22).
  const kept = await adapter.list();
  checkBackupBounds(kept.length, kept.at(-1)?.created, Math.floor(Date.now() / 1000), bounds);
  const made = await adapter.create(memo, bounds);
  if (typeof attrs.result_var !== 'string') return {};
  const result = PhpArray.fromEntries([
    ['backup_id', made.id],
    ['type', made.type],
    ['memo', made.memo],
    ['created', phpDate('Y-m-d H:i:s', made.created, call.render.timezone)],
    ['size', made.size],
  ] as [string, Value][]);
  return { assign: [[attrs.result_var, result]] };
});
