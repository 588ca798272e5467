/**
 * {section name=... loop=... start= step= max= show=}: Smarty 2's counted loop. The runtime
 * computes start/step/total exactly as Smarty_Compiler does; properties stay after the loop.
 */
import type { BlockNode } from '../structure.js';
import { lit } from './builder.js';
import type { EmitContext } from './context.js';
import { attrMap, loopName, rejectUnknown } from './attrs.js';
import { emitLoop } from './loop.js';

const SECTION_ATTRS = ['name', 'loop', 'start', 'step', 'max', 'show'];

export function emitSection(n: BlockNode, cx: EmitContext): void {
  const tag = n.tag;
  const attrs = attrMap(tag, cx);
  rejectUnknown(tag, attrs, SECTION_ATTRS, cx);
  const name = loopName(tag, attrs, cx, true) ?? { literal: 'section' };
  // Smarty 2 refuses a name that PHP's empty() finds empty: of what it reads from the tag, only
  // an unquoted `0` (`name="0"` keeps its quotes).
  const written = attrs.get('name')?.value;
  if (written && cx.src.text.slice(written.start, written.end) === '0')
    cx.error(
      'E_BAD_ATTR',
      '{section} name=0 is an empty name for Smarty 2 (missing section name): quote it or name it',
      written,
    );
  // An attribute left out is `undefined` (sectionStart applies Smarty 2's default); one given is
  // never `undefined`, even when it names a variable nobody assigned: `loop=$missing` loops 0
  // times in Smarty 2, while a section without loop= makes one pass.
  const arg = (k: string) => {
    const a = attrs.get(k);
    return a ? `(${cx.expr(a.value)}) ?? null` : 'undefined';
  };
  const code = cx.code;
  const sec = code.fresh('sec');
  const shown = code.fresh('shown');
  emitLoop(n, cx, {
    label: 'section',
    start: () => {
      // A name computed when the loop runs (`name=$n`) is read once, here (D364).
      const named = 'value' in name ? cx.expr(name.value) : lit(name.literal);
      code.line(
        `const ${sec} = $.sectionStart(${named}, { loop: ${arg('loop')}, start: ${arg('start')}, step: ${arg('step')}, max: ${arg('max')}, show: ${arg('show')} });`,
        cx.at(tag),
      );
      // {sectionelse} is decided before the loop: a same-named inner section may change `show`.
      code.line(`const ${shown} = ${sec}.show;`);
      return {
        head: `if (${shown}) for (${sec}.index = ${sec}.start, ${sec}.iteration = 1; ${sec}.iteration <= ${sec}.total; ${sec}.index += ${sec}.step, ${sec}.iteration++)`,
        // Not known here, so `$x[NAME]` and `$smarty.section.NAME.*` inside read the record by name.
        ...('literal' in name ? { section: { name: name.literal, state: sec } } : {}),
      };
    },
    otherwise: `!${shown}`,
  });
}
