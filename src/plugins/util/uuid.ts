import { defineFunction, type PluginContext } from '../types.js';
import { toStr } from '../../value/convert.js';

/** An RFC 4122 version 4 UUID from the render's generator (reproducible for a given seed). */
function uuidV4(ctx: PluginContext): string {
  const b = Array.from({ length: 16 }, () => Math.floor(ctx.random() * 256));
  b[6] = (b[6] & 0x0f) | 0x40; // version 4
  b[8] = (b[8] & 0x3f) | 0x80; // variant 10xx
  const hex = b.map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export default defineFunction({
  kind: 'function',
  name: 'uuid',
  summary:
    'Stores a new random UUID (RFC 4122 version 4, lowercase `xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx`) in `var`; without `var` it is printed instead.',
  attrs: {
    var: { type: 'varname' },
  },
  examples: [
    {
      template:
        '{uuid var=u}{$u|strlen}|{$u|substr:14:1}|{$u|substr:8:1}{$u|substr:13:1}{$u|substr:18:1}{$u|substr:23:1}',
      output: '36|4|----',
    },
  ],
  run(attrs, ctx) {
    const id = uuidV4(ctx);
    if (attrs.var === undefined || attrs.var === null) return id;
    ctx.assign(toStr(attrs.var), id);
  },
});
