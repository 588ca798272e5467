import { defineFunction } from '../types.js';

/** Compiled by src/compiler/codegen/include.ts: the custom function is compiled into the same script. */
export default defineFunction({
  kind: 'compiler',
  name: 'function',
  summary:
    'Calls a stored custom function by identifier (`name`) or `id`, in a scope of its own holding only the further attributes; the value of its {return value=...} goes to `var`. What the function prints is dropped. Calls nest up to 32 levels.',
  attrs: {
    var: { type: 'varname', required: true },
    name: { type: 'string', doc: 'Identifier (slug) of the custom function; written literally.' },
    id: { type: 'int', doc: 'Numeric id of the custom function; written literally.' },
  },
  extraAttrs: true,
  examples: [
    {
      template: '{function name="greet" var=msg who="world"}{$msg}',
      functions: { greet: '{assign var=text value="Hello, `$who`!"}{return value=$text}' },
      output: 'Hello, world!',
    },
  ],
});
