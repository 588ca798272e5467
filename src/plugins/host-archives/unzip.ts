import { defineFunction } from '../types.js';
import { STORAGE_AND_CALLBACK } from './shared-attrs.js';
import { ROW_BUDGETS } from '../budgets.js';

export default defineFunction({
  kind: 'function',
  name: 'unzip',
  host: 'files',
  budget: ROW_BUDGETS.storage,
  summary:
    "Extracts a zip archive into a folder of cloud storage and sets `unzip_result`: `dest`, `files` (the paths written) and `skipped` (entries not extracted, with `name` and `reason`: folders, links, names starting with a dot). `src` is a /files/g/ path or an https URL (at most 64 MiB); `dest` a folder under /files/g/ (omitted: the archive's path without `.zip`, or a new folder under /files/g/archives/ for a URL). Names are UTF-8 when the entry says so, else decoded by the first encoding of `detect_order` that reads them (default utf8, cp932, EUC-JP). The whole archive is refused, nothing written, for a name with `..`, a leading `/`, a backslash, a drive letter, a control character, an undecodable or duplicate name, more than 10,000 entries, an entry over 64 MiB or compressed more than 200:1, more than 256 MiB in all, or an entry holding more than it declares. With `overwrite` 0 (the default) an existing file refuses the call; 1 replaces. A zip inside the archive is written as a file. `callback_batch` queues that batch with `data` once every file is written.",
  attrs: {
    src: { type: 'string', required: true, doc: 'The archive: /files/g/... or https://....' },
    dest: { type: 'string', doc: 'Folder under /files/g/.' },
    ...STORAGE_AND_CALLBACK,
    overwrite: {
      type: 'int',
      min: 0,
      max: 1,
      default: 0,
      doc: '1 replaces existing files; 0 refuses the call when one exists.',
    },
    detect_order: {
      type: 'mixed',
      doc: 'Encodings tried for names without the UTF-8 flag: an array or comma-separated names (utf8, cp932/SJIS, EUC-JP).',
    },
  },
  examples: [
    {
      template:
        '{zip entries=$entries dest="/files/g/example-unzip/in.zip"}{unzip src=$zip_dest overwrite=1}{$unzip_result.dest}: {foreach from=$unzip_result.files item=f}{$f}{/foreach}',
      vars: { entries: [{ url: '/files/g/example/report.txt', name: 'レポート.txt' }] },
      output: '/files/g/example-unzip/in: /files/g/example-unzip/in/レポート.txt',
    },
  ],
});
