import { defineFunction } from '../types.js';
import { STORAGE_AND_CALLBACK } from './shared-attrs.js';
import { ROW_BUDGETS } from '../budgets.js';

export default defineFunction({
  kind: 'function',
  name: 'gzip',
  host: 'files',
  budget: ROW_BUDGETS.storage,
  summary:
    "Compresses one file to gzip in cloud storage and sets `gzip_dest` to the path written. `file_url` is a /files/g/ path or an https URL (fetched through the egress guard, counted with {api}'s requests); at most 64 MiB. `dest` is under /files/g/: a file path, or a folder ending in `/` (the source's name + `.gz` inside it); omitted, the source path + `.gz` (a URL: a new name under /files/g/archives/). An existing file is replaced. `bucket`: only the site's own storage (leave it empty). `callback_batch` queues that batch with `data` (at most 64 KiB as JSON) once the file is written; it needs the host's batches adapter.",
  attrs: {
    file_url: { type: 'string', required: true, doc: 'Source: /files/g/... or https://....' },
    dest: { type: 'string', doc: 'Destination under /files/g/: a file, or a folder ending in /.' },
    ...STORAGE_AND_CALLBACK,
  },
  examples: [
    { template: '{gzip file_url="/files/g/example/report.txt"}{$gzip_dest}', output: '/files/g/example/report.txt.gz' },
    {
      template: '{gzip file_url="/files/g/example/report.txt" dest="/files/g/compressed/"}{$gzip_dest}',
      output: '/files/g/compressed/report.txt.gz',
    },
  ],
});
