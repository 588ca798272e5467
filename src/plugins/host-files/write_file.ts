import { defineFunction } from '../types.js';
import { ROW_BUDGETS } from '../budgets.js';

export default defineFunction({
  kind: 'function',
  name: 'write_file',
  host: 'files',
  budget: ROW_BUDGETS.storage,
  summary:
    'Writes `value` to a file and stores the virtual path written in `var`. Without `path` a new file with a unique name is created under /files/temp; `path` may name /files/temp, /files/user or /files/ltd. A string is written as is (write "\\n" yourself); an array is written as one CSV line (PHP fputcsv, "\\n" included). `is_append=1` appends one whole record and requires `path` (E_BAD_COMBINATION); otherwise the file is replaced atomically. The storage quota is checked before writing (E_QUOTA).',
  attrs: {
    path: { type: 'string', doc: 'Virtual path to write; omitted: a unique name in /files/temp.' },
    var: { type: 'varname', required: true, doc: 'Receives the virtual path written.' },
    value: { type: 'mixed', doc: 'String, or an array written as one CSV line.' },
    is_append: { type: 'int', min: 0, max: 1, doc: '1: append (requires path).' },
  },
  examples: [
    {
      template:
        '{write_file path="/files/user/out/log.csv" var=p value="id,name\\n"}{write_file path="/files/user/out/log.csv" var=p value=$row is_append=1}{$p}:{read_file path=$p row=l}[{$l}]{/read_file}',
      vars: { row: [1, 'Alice Smith'] },
      output: '/files/user/out/log.csv:[id,name][1,"Alice Smith"]',
    },
    { template: '{write_file var=p value="temporary"}{$p|truncate:12:""}', output: '/files/temp/' },
  ],
});
