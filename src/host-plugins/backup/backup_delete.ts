/**
 * {backup_delete}: deletes a backup by backup_id, or every backup made between start_date and
 * end_date (strtotime-readable, read at the render's clock in the site's time zone; a missing
 * bound is open); with backup_id the period is ignored. result_var: true when a backup was
 * deleted, false when none was (no such id, nothing in the period, a date strtotime cannot read).
 */
import { implement } from '../plugin-contract.js';
import { BridgeError } from '../../host-api/errors.js';
import { strtotimeInt } from '../../php/date/strtotime.js';
import { backupsFor } from './common.js';
import declaration from '../../plugins/host-backup/backup_delete.js';

export const backupDelete = implement(declaration, async (attrs, call) => {
  const adapter = backupsFor(call, 'backup_delete');
  const id = typeof attrs.backup_id === 'string' && attrs.backup_id !== '' ? attrs.backup_id : null;
  const start = typeof attrs.start_date === 'string' && attrs.start_date !== '' ? attrs.start_date : null;
  const end = typeof attrs.end_date === 'string' && attrs.end_date !== '' ? attrs.end_date : null;
  if (id === null && start === null && end === null)
    throw new BridgeError('E_BAD_ATTRIBUTE', '{backup_delete} needs backup_id=, or start_date= and/or end_date=');
  const answer = (ok: boolean) =>
    typeof attrs.result_var === 'string' ? { assign: [[attrs.result_var, ok]] as [string, boolean][] } : {};
  if (id !== null) return answer(await adapter.delete(id));
  const at = (s: string | null, open: number): number | false =>
    s === null
      ? open
      : (() => {
          const t = strtotimeInt(s, call.render.now, call.render.timezone);
          return t === false ? false : Number(t);
        })();
  const from = at(start, -Infinity);
  const to = at(end, Infinity);
  if (from === false || to === false) return answer(false);
  let deleted = 0;
  for (const b of await adapter.list())
    if (b.created >= from && b.created <= to && (await adapter.delete(b.id))) deleted++;
  return answer(deleted > 0);
});
