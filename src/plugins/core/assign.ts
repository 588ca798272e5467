import { defineFunction } from '../types.js';

export default defineFunction({
  kind: 'compiler',
  name: 'assign',
  summary:
    'Assigns a value to a template variable. The platform extends `var`: `a.b.c` writes a nested key (creating the arrays on the way, up to 4 levels) and a trailing dot (`list.`) appends.',
  attrs: {
    var: { type: 'varname', required: true, doc: 'Variable name; `a.b` nests, `list.` appends.' },
    value: { type: 'mixed', required: true, doc: 'The value; arrays stay arrays.' },
  },
  examples: [
    { template: "{assign var=title value='Report'}{$title}", output: 'Report' },
    { template: '{assign var="m.a.b" value=1}{assign var="m.list." value="x"}{$m.a.b}{$m.list.0}', output: '1x' },
  ],
  run(attrs, ctx) {
    ctx.assign(String(attrs.var), attrs.value);
  },
});
