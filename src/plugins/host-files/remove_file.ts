import { defineFunction } from '../types.js';

export default defineFunction({
  kind: 'function',
  name: 'remove_file',
  host: 'files',
  summary:
    "Removes one file under /files/user, /files/ltd, /files/temp, /files/g or /files/a (never a folder or a root). `status_var` receives true, or false when there is no such file (a warning is logged); without status_var that is an error. Refused paths are always errors (E_PATH_DENIED). `bucket`: only the site's own storage.",
  attrs: {
    path: { type: 'string', doc: 'Virtual path of the file.' },
    bucket: { type: 'string', doc: "Must be empty: only the site's own storage." },
    status_var: { type: 'varname', doc: 'Receives true or false.' },
  },
  examples: [
    {
      template:
        '{write_file path="/files/temp/x.txt" var=p value="x"}{remove_file path=$p status_var=a}{remove_file path=$p status_var=b}{if $a}removed{/if}, {if !$b}gone{/if}',
      output: 'removed, gone',
    },
  ],
});
