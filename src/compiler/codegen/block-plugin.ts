/**
 * Block plugins ({read_dir ...}...{/read_dir}): the host answers with the items, and the body
 * runs once per item with the item in the variable the host names. {break} and {continue} work.
 */
import type { BlockNode } from '../structure.js';
import { lit } from './builder.js';
import type { EmitContext } from './context.js';
import { pluginAttrs } from './plugin-tag.js';
import { emitLoop } from './loop.js';

export function emitBlockPlugin(n: BlockNode, cx: EmitContext): void {
  const tag = n.tag;
  const plugin = cx.plugins.findFunction(tag.name);
  if (!plugin || plugin.kind !== 'block') {
    cx.error('E_UNKNOWN_TAG', `{${tag.name}} is not a block`, tag);
    return;
  }
  cx.aliases.host.add(plugin.name);
  const code = cx.code;
  const blk = code.fresh('blk');
  const i = code.fresh('i');
  emitLoop(n, cx, {
    label: plugin.name,
    start: () => {
      code.line(`const ${blk} = $.hostBlock(${lit(plugin.name)}, ${pluginAttrs(tag, plugin, cx)});`, cx.at(tag));
      return { head: `for (let ${i} = 0; ${i} < ${blk}.items.length; ${i}++)` };
    },
    item: () => code.line(`$.assign(s, ${blk}.name, ${blk}.items[${i}]);`),
  });
}
