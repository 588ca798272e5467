import { defineFunction } from '../types.js';

export default defineFunction({
  kind: 'block',
  name: 'read_file',
  host: 'files',
  summary:
    'Block: reads a text file of the site\'s file storage and runs its body once per line (`type="txt"`, the line without its line break), per CSV record (`type="csv"`, a list of fields parsed as PHP\'s fgetcsv; a quoted field may span lines; a blank line is `[null]`) or per JSON line (`type="jsonl"`, decoded as associative arrays; blank lines skipped, invalid lines null). The item goes to `row` (default `row`). `path` is a virtual path with its leading slash under /files/user, /files/ltd, /files/temp, /files/topics or /files/member/ext. At most 100 000 lines and the host\'s read size limit; csv and jsonl at most 1 000 000 values a file (a record, a line and each field or JSON value count one) and 100 000 a record or line, a line bounded before it is decoded by one value per `,`, `[` and `{` (E_SIZE_LIMIT); files with NUL bytes are refused as binary. `ignore_permission=true` is allowed only in batch and admin-test renders (E_PERMISSION_DENIED in web renders).',
  attrs: {
    name: { type: 'string', doc: 'Name of the block (unused).' },
    path: { type: 'string', doc: 'Virtual path of the file, e.g. /files/user/data.csv.' },
    row: { type: 'varname', doc: 'Variable receiving each line, record or decoded JSON line (default row).' },
    type: { type: 'string', enum: ['txt', 'csv', 'jsonl'], doc: 'txt (default), csv or jsonl.' },
    ignore_permission: {
      type: 'bool',
      doc: 'Ignore publication status and permissions of /files/topics and /files/member (batch and admin test only).',
    },
  },
  examples: [
    {
      template: '{read_file path="/files/user/example/notes.txt" row=line}[{$line}]{/read_file}',
      output: '[first line][second line]',
    },
    {
      template: '{read_file path="/files/user/example/members.csv" row=r type="csv"}{$r.1};{/read_file}',
      output: 'name;Alice;Bob, Jr.;',
    },
    {
      template: '{read_file path="/files/user/example/events.jsonl" row=e type="jsonl"}{$e.id}:{$e.type} {/read_file}',
      output: '1:open 2:click ',
    },
  ],
});
