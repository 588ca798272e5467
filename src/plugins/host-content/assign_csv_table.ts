import { defineFunction } from '../types.js';

export default defineFunction({
  kind: 'function',
  name: 'assign_csv_table',
  host: 'masters',
  summary:
    'Assigns a master (CSV) table: a list of rows, each a list of cells. With get_key_val, an array of row[key_idx] => row[value_idx] (the whole row without value_idx; a list of them per key with multiple; nested arrays when key_idx is an array of indexes). ' +
    '`filter` keeps the rows that match a condition such as `region="Kanto" AND (code="13" OR code!="14")` (operators = and !=, AND, OR, parentheses; at most 512 characters and 32 conditions), on columns named in allow_list only. A missing table gives an empty array.',
  attrs: {
    csvtable_id: { type: 'int', required: true, min: 1 },
    var: { type: 'varname', required: true },
    get_key_val: { type: 'bool', default: false },
    key_idx: {
      type: 'mixed',
      doc: 'Column index of the key (default 0), or an array of indexes for nested keys (at most 4).',
    },
    value_idx: { type: 'int', min: 0, max: 999, doc: 'Column index of the value (default: the whole row).' },
    multiple: {
      type: 'bool',
      default: false,
      doc: 'With get_key_val: a list of values per key instead of the last one.',
    },
    lang: {
      type: 'string',
      maxLength: 5,
      doc: "Language of the rows (default: the site's; a table without rows in it falls back to the site's).",
    },
    filter: { type: 'string', maxLength: 512, doc: 'Condition on column names (see above).' },
    allow_list: {
      type: 'string',
      maxLength: 1000,
      doc: 'Comma-separated column names the filter may use; required with filter.',
    },
  },
  examples: [
    {
      template:
        '{assign_csv_table csvtable_id=1 var=p get_key_val=true key_idx=0 value_idx=1 lang="en"}{$p.13}, {$p.27}',
      output: 'Tokyo, Osaka',
    },
    {
      template:
        '{assign_csv_table csvtable_id=1 var=rows filter=\'region="関東"\' allow_list="region"}{foreach from=$rows item=r}{$r.1} {/foreach}',
      output: '東京都 神奈川県 ',
    },
  ],
});
