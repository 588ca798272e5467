import { defineFunction } from '../types.js';
import { ROW_BUDGETS } from '../budgets.js';

export default defineFunction({
  kind: 'function',
  name: 'save_file',
  host: 'files',
  budget: ROW_BUDGETS.storage,
  summary:
    'Saves `value` as a new file with a unique name under /files/temp and stores its virtual path in `var` (nothing is saved without var). Counted against the storage quota (E_QUOTA).',
  attrs: {
    value: { type: 'string', doc: 'Content of the file.' },
    var: { type: 'varname', doc: 'Receives the virtual path of the new file.' },
  },
  examples: [{ template: '{save_file value="hello" var=p}{read_file path=$p row=l}{$l}{/read_file}', output: 'hello' }],
});
