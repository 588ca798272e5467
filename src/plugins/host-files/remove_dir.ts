import { defineFunction } from '../types.js';

export default defineFunction({
  kind: 'function',
  name: 'remove_dir',
  host: 'files',
  summary:
    'Removes an empty folder under /files/user or /files/ltd (a root itself is E_PATH_DENIED). `status_var` receives true, or false when the folder does not exist or is not empty; without status_var that is an error.',
  attrs: {
    path: { type: 'string', doc: 'Virtual path of the folder.' },
    status_var: { type: 'varname', doc: 'Receives true or false.' },
  },
  examples: [
    {
      template:
        '{write_file path="/files/user/tmpdir/a.txt" var=p value="x"}{remove_dir path="/files/user/tmpdir" status_var=a}{remove_file path=$p}{remove_dir path="/files/user/tmpdir" status_var=b}{if !$a}not empty{/if}, {if $b}removed{/if}',
      output: 'not empty, removed',
    },
  ],
});
