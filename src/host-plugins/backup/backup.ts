/**
 * {backup type="full"}: a full backup of the site now (its database rows and files), through
 * HostAdapters.backups; result_var gets the backup's record. Refused beyond MAX_BACKUPS kept
 * (E_QUOTA) and within BACKUP_INTERVAL_SECONDS of the last (E_RATE_LIMIT).
 */
import { implement } from '../plugin-contract.js';
import { BridgeError } from '../../host-api/errors.js';
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
  const kept = await adapter.list();
  if (kept.length >= MAX_BACKUPS)
    throw new BridgeError(
      'E_QUOTA',
      `the site keeps at most ${MAX_BACKUPS} backups; delete one with {backup_delete} first`,
    );
  const last = kept.at(-1);
  const now = Math.floor(Date.now() / 1000);
  if (last && now - last.created < BACKUP_INTERVAL_SECONDS)
    throw new BridgeError(
      'E_RATE_LIMIT',
      `one backup per ${BACKUP_INTERVAL_SECONDS / 60} minutes: the last one is ${now - last.created} s old`,
    );
  const made = await adapter.create(memo);
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
