import { defineModifier } from '../types.js';
import { PhpArray, type Value } from '../../value/value.js';
import { toStr } from '../../value/convert.js';

export default defineModifier({
  kind: 'modifier',
  name: 'to_form_options',
  summary:
    'Turns an associative array into a list of pairs `{key: k, value: v}` (member names can be changed with the two arguments); a non-array gives an empty list. Use `@`.',
  origin: 'platform',
  params: [
    { name: 'key', type: 'string', default: 'key', doc: 'Name of the member holding the key.' },
    { name: 'label', type: 'string', default: 'value', doc: 'Name of the member holding the value.' },
  ],
  examples: [
    {
      template: '{$m|@to_form_options|@json_encode}',
      vars: { m: { a: 'A', b: 'B' } },
      output: '[{"key":"a","value":"A"},{"key":"b","value":"B"}]',
    },
    {
      template: "{$m|@to_form_options:'id':'label'|@json_encode}",
      vars: { m: { '1': 'One' } },
      output: '[{"id":1,"label":"One"}]',
    },
  ],
  run(input, [keyName, labelName]) {
    if (!(input instanceof PhpArray)) return PhpArray.empty();
    const kn = toStr(keyName as Value);
    const ln = toStr(labelName as Value);
    return PhpArray.fromList(
      input.entries().map(([k, v]) => {
        const pair = PhpArray.empty();
        pair.set(kn, k);
        pair.set(ln, v);
        return pair;
      }),
    );
  },
});
