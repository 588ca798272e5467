import { defineFunction } from '../types.js';

export default defineFunction({
  kind: 'function',
  name: 'backup',
  host: 'backups',
  summary:
    'Makes a full backup of the site now: its database rows and its files, in one archive with a manifest and SHA-256 checksums, which `smartcage site restore` restores into an empty folder. ' +
    "Runs in a batch, in the admin test, or for a super user (else E_PERMISSION_DENIED). A site keeps at most 10 backups (E_QUOTA) and makes at most one per 10 minutes (E_RATE_LIMIT); a backup over the host's size cap is E_SIZE_LIMIT and nothing is kept.",
  attrs: {
    type: { type: 'string', default: 'full', enum: ['full'], doc: 'What is backed up: `full` (the only type).' },
    memo: { type: 'string', doc: 'A note kept with the backup (at most 200 characters).' },
    result_var: {
      type: 'varname',
      doc: 'Receives the backup: backup_id, type, memo, created (Y-m-d H:i:s), size (bytes).',
    },
  },
  examples: [
    {
      template:
        '{backup type="full" memo="before the release" result_var=b}{$b.type} {$b.memo}{if $b.size > 0} saved{/if}',
      output: 'full before the release saved',
      memberId: 1,
    },
  ],
});
