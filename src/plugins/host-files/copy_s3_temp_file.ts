import { defineFunction } from '../types.js';
import { ROW_BUDGETS } from '../budgets.js';

export default defineFunction({
  kind: 'function',
  name: 'copy_s3_temp_file',
  host: 'files',
  budget: ROW_BUDGETS.storage,
  summary:
    'Copies a temporary upload of this site to `dest_path` (cloud storage /files/g, /files/a, or under /files/temp; local storage is unsupported). `file_id` is the ID the temporary upload endpoints returned: `files/temp/<service_dir>/<site_key>/<uuid>` optionally with `.<extension>`, of the same site. Another form, another site, a disallowed dest_path or a missing upload: nothing is copied and `status_var` receives false (a warning says why); without status_var the refusal is an error. Success: true.',
  attrs: {
    file_id: { type: 'string', required: true, doc: 'ID of the temporary upload.' },
    dest_path: { type: 'string', required: true, doc: 'Destination: /files/g/..., /files/a/... or /files/temp/....' },
    status_var: { type: 'varname', doc: 'Receives true or false.' },
  },
  examples: [
    {
      template:
        '{copy_s3_temp_file file_id="files/temp/upload/default/0b6f1d2e-3c4a-4b5c-8d9e-0f1a2b3c4d5e.txt" dest_path="/files/g/uploads/copy.txt" status_var=ok}{if $ok}copied{/if}',
      output: 'copied',
    },
    {
      template:
        '{copy_s3_temp_file file_id="files/temp/upload/othersite/0b6f1d2e-3c4a-4b5c-8d9e-0f1a2b3c4d5e.txt" dest_path="/files/g/x.txt" status_var=ok}{if !$ok}not copied{/if}',
      output: 'not copied',
    },
  ],
});
