import { defineFunction } from '../types.js';
import { ROW_BUDGETS } from '../budgets.js';

export default defineFunction({
  kind: 'function',
  name: 'get_file',
  host: 'files',
  budget: ROW_BUDGETS.storage,
  summary:
    'Gets a file from cloud storage (`path`, /files/g or /files/a) or from an `https://` `url` (through the egress guard): exactly one of the two (E_BAD_COMBINATION otherwise). `save` true (default): the file is written under /files/temp (`save_path`, or a new host-chosen name) and `var` receives that path; `save=false`: `var` receives the content (UTF-8). At most 16 MiB (E_SIZE_LIMIT; a download stops there). A missing file or a non-2xx answer gives `var` "" and a warning. `bucket`: only the site\'s own storage (leave it empty).',
  attrs: {
    var: {
      type: 'varname',
      required: true,
      doc: 'Receives the saved path, or the content with save=false ("" when the file could not be got).',
    },
    path: { type: 'string', doc: 'Cloud storage path (/files/g/..., /files/a/...).' },
    url: { type: 'string', maxLength: 2048, doc: 'An https:// URL, fetched through the egress guard.' },
    bucket: { type: 'string', doc: "Must be empty: only the site's own storage." },
    save: { type: 'bool', default: true, doc: 'false: the content goes into var, nothing is written.' },
    save_path: { type: 'string', doc: 'Where to save, under /files/temp; default a new unique name there.' },
  },
  examples: [
    { template: '{get_file path="/files/g/example/report.txt" var=c save=false}{$c}', output: 'report\n' },
    { template: '{get_file path="/files/g/example/report.txt" var=p}{$p|truncate:12:""}', output: '/files/temp/' },
    {
      template: '{get_file path="/files/g/example/none.txt" var=c save=false}{if $c|strlen == 0}not found{/if}',
      output: 'not found',
    },
  ],
});
