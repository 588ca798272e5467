import { defineFunction } from '../types.js';

export default defineFunction({
  kind: 'function',
  name: 'assign_group_nm',
  host: 'members.groups',
  summary:
    "The name of one of the site's member groups in `lang` (default: the site's language; a group without a name in that language gives its name in the site's language). " +
    'A group the site does not have gives null.',
  attrs: {
    group_id: { type: 'int', required: true, min: 1 },
    var: { type: 'varname', required: true },
    lang: { type: 'string', maxLength: 8, doc: 'A two-letter language code (ja, en).' },
  },
  examples: [
    {
      template: '{assign_group_nm group_id=1 var=ja}{assign_group_nm group_id=1 lang="en" var=en}{$ja} / {$en}',
      output: '一般会員 / Regular members',
    },
  ],
});
