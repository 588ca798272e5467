import { defineFunction } from '../types.js';

export default defineFunction({
  kind: 'function',
  name: 'backup_delete',
  host: 'backups',
  summary:
    'Deletes a backup by backup_id, or every backup made between start_date and end_date (strtotime-readable; a missing bound is open); when backup_id is given the period is ignored. One of them is required. ' +
    'result_var is true when a backup was deleted, false otherwise. Runs where {backup} runs.',
  attrs: {
    backup_id: { type: 'string', doc: 'The id {backup} gave (result_var.backup_id).' },
    start_date: { type: 'string', doc: 'Earliest creation time, strtotime-readable.' },
    end_date: { type: 'string', doc: 'Latest creation time, strtotime-readable.' },
    result_var: { type: 'varname', doc: 'Receives true on success, false on failure.' },
  },
  examples: [
    {
      template: '{backup_delete backup_id="no-such-backup" result_var=ok}{if $ok}deleted{else}none{/if}',
      output: 'none',
      memberId: 1,
    },
  ],
});
