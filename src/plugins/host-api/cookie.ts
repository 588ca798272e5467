import { defineFunction } from '../types.js';

export default defineFunction({
  kind: 'function',
  name: 'cookie',
  host: 'cookies',
  summary:
    'Reads or writes an entry of the one JSON cookie `rcms_api_local`. With `value` it sets `key` (`overwrite=0` keeps an existing entry); without, it reads `key` (or the whole store without key) into `var`. ' +
    'Keys: 1..64 of A-Z a-z 0-9 _ - starting with a letter or _ (not __proto__, constructor, prototype); at most 30 entries (E_QUOTA) and 3800 bytes encoded (E_SIZE_LIMIT). Secret handles are refused (E_SECRET_DENIED). In batches the store is empty and writes are ignored.',
  attrs: {
    var: { type: 'varname', doc: 'Receives the value (null when absent).' },
    key: { type: 'string' },
    value: { type: 'mixed', doc: 'A scalar or an array; stored as JSON.' },
    expires: { type: 'int', min: 0, max: 400, doc: 'Days; 0 or absent: a session cookie.' },
    overwrite: { type: 'int', min: 0, max: 1, default: 1, doc: '1 overwrite, 0 keep an existing entry.' },
  },
  examples: [
    { template: '{cookie key="lang" value="en"}{cookie var=l key="lang"}{$l}', output: 'en' },
    {
      template: '{cookie key="n" value="1"}{cookie key="n" value="2" overwrite=0}{cookie var=n key="n"}{$n}',
      output: '1',
    },
  ],
});
