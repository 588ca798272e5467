import { defineFunction } from '../types.js';
import { STORAGE_AND_CALLBACK } from './shared-attrs.js';
import { ROW_BUDGETS } from '../budgets.js';

export default defineFunction({
  kind: 'function',
  name: 'zip',
  host: 'files',
  budget: ROW_BUDGETS.storage,
  summary:
    "Makes a zip archive in cloud storage and sets `zip_dest` to its path. `entries` lists at most 10,000 arrays with `url` (a /files/g/ path or an https URL through the egress guard) and `name` (the relative path inside the archive: no `..`, no leading `/`, each name once); the sources together are at most 64 MiB. Names are stored as UTF-8. `dest` is the archive's path under /files/g/ (omitted: a new name under /files/g/archives/); an existing file is replaced. `bucket`: only the site's own storage (leave it empty). `callback_batch` queues that batch with `data` (at most 64 KiB as JSON) once the archive is written.",
  attrs: {
    entries: { type: 'array', required: true, doc: 'Arrays with url and name.' },
    dest: { type: 'string', doc: 'Path of the zip under /files/g/.' },
    ...STORAGE_AND_CALLBACK,
  },
  examples: [
    {
      template: '{zip entries=$entries dest="/files/g/example-out/report.zip"}{$zip_dest}',
      vars: { entries: [{ url: '/files/g/example/report.txt', name: 'docs/report.txt' }] },
      output: '/files/g/example-out/report.zip',
    },
  ],
});
