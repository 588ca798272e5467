/**
 * {foreach from=... item=... key=... name=...}: iterates over a snapshot of the array (PHP
 * iterates a copy). A non-array value loops once with itself, null loops zero times. Item and
 * key stay assigned after the loop; with name=, $smarty.foreach.NAME.* is kept up to date.
 */
import type { BlockNode } from '../structure.js';
import { lit } from './builder.js';
import type { EmitContext } from './context.js';
import { attrMap, loopName, requireName } from './attrs.js';
import { emitLoop } from './loop.js';

export function emitForeach(n: BlockNode, cx: EmitContext): void {
  const tag = n.tag;
  const attrs = attrMap(tag, cx);
  const from = attrs.get('from');
  if (!from) cx.error('E_MISSING_ATTR', '{foreach} needs the attribute from', tag);
  const item = requireName(tag, attrs, 'item', cx, true);
  const key = requireName(tag, attrs, 'key', cx, false);
  const name = loopName(tag, attrs, cx, false);
  const code = cx.code;
  const it = code.fresh('it');
  const i = code.fresh('i');
  let state: string | null = null;
  // A name computed when the loop runs (`name=$n`): the JavaScript that computes it.
  let named: string | null = null;
  emitLoop(n, cx, {
    label: 'foreach',
    start: () => {
      code.line(`const ${it} = each(${from ? cx.expr(from.value) : 'null'});`, cx.at(tag));
      const head = `for (let ${i} = 0; ${i} < ${it}.n; ${i}++)`;
      if (name === null) return { head };
      if ('value' in name) {
        // Not known here, so `$smarty.foreach.NAME.*` inside reads the record by name (smarty-var.ts).
        named = cx.expr(name.value);
        code.line(`$.foreachStart(${named}, ${it}.n);`);
        return { head };
      }
      state = code.fresh('loop');
      code.line(`const ${state} = $.foreachStart(${lit(name.literal)}, ${it}.n);`);
      return { head, foreach: { name: name.literal, state } };
    },
    item: () => {
      // Counted on, not set from the position: a same-named inner loop may have moved it (foreachStart).
      if (state) code.line(`${state}.iteration++;`);
      // PHP's foreach assigns the value, then the key: with key=v item=v the key is left.
      if (item) code.line(`s[${lit(item)}] = ${it}.vals[${i}];`);
      if (key) code.line(`s[${lit(key)}] = ${it}.key(${i});`);
      // After the item and key, as in Smarty 2, which reads the name again at each pass: an item
      // or a body that changes the variable counts the loop it names now.
      if (named) code.line(`$.foreachNext(${named});`);
    },
    otherwise: `${it}.n === 0`,
  });
}
