import { defineFunction } from '../types.js';
import { ROW_BUDGETS } from '../budgets.js';

export default defineFunction({
  kind: 'function',
  name: 'put_file',
  host: 'files',
  budget: ROW_BUDGETS.storage,
  summary:
    "Stores content in file storage: exactly one source (`tmp_path`, a file under /files/temp such as write_file or save_file returned, or `value`, the content) and exactly one destination (`path` in cloud storage, /files/g or /files/a, or `files_path` in local storage, /files/user or /files/ltd); anything else is E_BAD_COMBINATION. The destination is replaced atomically and its folders are created. `bucket`: only the site's own storage (leave it empty).",
  attrs: {
    tmp_path: { type: 'string', doc: 'Source file under /files/temp.' },
    path: { type: 'string', doc: 'Destination in cloud storage (/files/g/..., /files/a/...).' },
    value: { type: 'string', doc: 'Content to write.' },
    files_path: { type: 'string', doc: 'Destination in local storage (/files/user/..., /files/ltd/...).' },
    bucket: { type: 'string', doc: "Must be empty: only the site's own storage." },
  },
  examples: [
    {
      template:
        '{put_file value="hi" files_path="/files/user/out/hi.txt"}{read_file path="/files/user/out/hi.txt" row=l}{$l}{/read_file}',
      output: 'hi',
    },
    {
      template:
        '{save_file value="x" var=t}{put_file tmp_path=$t path="/files/g/out/x.txt"}{read_dir path="/files/user" name_only=true file_var=d type="dir" pattern="/out$/"}{$d}{/read_dir}',
      output: '/files/user/out',
    },
  ],
});
