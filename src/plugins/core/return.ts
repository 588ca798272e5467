import { defineFunction } from '../types.js';

/** Compiled by src/compiler/codegen/jump.ts into a jump out of the template. */
export default defineFunction({
  kind: 'compiler',
  name: 'return',
  summary:
    'Ends the current template or custom function. With `value`, that value is what {function} returns (and what a render returns as `returnValue`). Output printed before it is kept.',
  attrs: { value: { type: 'mixed' } },
  examples: [
    { template: 'before{if 1}{return}{/if}after', output: 'before' },
    {
      template: '{function name="f" var=r}{$r|@count}',
      functions: { f: '{assign var=l value=$dataSet.emptyArray}{assign var="l." value=1}{return value=$l}' },
      output: '1',
    },
  ],
});
