import { defineFunction } from '../types.js';

export default defineFunction({
  kind: 'function',
  name: 'rename_file',
  host: 'files',
  summary:
    'Moves a file within cloud storage. Both paths are written without a leading slash (`files/g/...`, `files/a/...`); local files (files/user, files/ltd) cannot be moved (E_PATH_DENIED). Folders of the destination are created; an existing destination file is replaced. `status_var` receives true, or false when the source does not exist; without status_var that is an error.',
  attrs: {
    src_path: { type: 'string', doc: 'Source, e.g. files/g/a.csv.' },
    dest_path: { type: 'string', doc: 'Destination, e.g. files/g/archive/a.csv.' },
    status_var: { type: 'varname', doc: 'Receives true or false.' },
  },
  examples: [
    {
      template:
        '{rename_file src_path="files/g/example/report.txt" dest_path="files/g/example/renamed.txt" status_var=a}{rename_file src_path="files/g/example/renamed.txt" dest_path="files/g/example/report.txt" status_var=b}{if $a && $b}moved and back{/if}',
      output: 'moved and back',
    },
  ],
});
