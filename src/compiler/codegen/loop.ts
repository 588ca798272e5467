/**
 * The shape every loop compiles to ({foreach}, {section}, block plugins), written once:
 *
 *   { // 3:1 foreach
 *     const w1 = P[0]; P[0] = 7;           the loop's line is the recorded position while it runs
 *     ...start lines, the loop's head...    (Loop.start)
 *     for (...) {
 *       if (o.length > $.outputCheckAt || --$.ticks < 0) $.loopCheck(o);
 *       ...item lines...                    (Loop.item)
 *       ...body: {break} and {continue} are allowed in it...
 *     }
 *     P[0] = w1;                            the position before the loop again
 *     if (...) { ...else branch... }        ({foreachelse}, {sectionelse}: Loop.otherwise)
 *   }
 */
import type { BlockNode } from '../structure.js';
import type { EmitContext } from './context.js';

/** What a loop supplies; the rest of its code is the same for every loop. */
export interface Loop {
  /** Names the loop in the comment of its first line: `foreach`, `section`, the plugin. */
  label: string;
  /**
   * Writes the lines that prepare the loop, the first of them positioned at the tag, and returns
   * its head. Called after the loop's position is recorded: a modifier or plugin call in these
   * lines then records its own position on top of it.
   */
  start(): LoopHead;
  /** Writes the lines at the top of each iteration, after the output check: the loop's variables. */
  item?(): void;
  /** The condition for the block's else branch ({foreachelse}: no items), when it can have one. */
  otherwise?: string;
}

interface LoopHead {
  /** `for (...)`, without its brace. */
  head: string;
  /** A named {foreach}: inside its body, `$smarty.foreach.NAME.*` reads this state variable. */
  foreach?: { name: string; state: string };
  /** A {section}: inside its body, `$x[NAME]` and `$smarty.section.NAME.index` read this state variable. */
  section?: { name: string; state: string };
}

export function emitLoop(n: BlockNode, cx: EmitContext, loop: Loop): void {
  const code = cx.code;
  code.line(`{ // ${cx.where(n.tag)} ${loop.label}`, cx.at(n.tag));
  code.indent();
  // One store per loop entry, none per iteration: a limit enforced from outside the isolate
  // names the loop's line while it runs (builder.ts markNext for the calls in it).
  const saved = code.fresh('w');
  code.line(`const ${saved} = P[0]; P[0] = ${code.lastMark};`);
  const { head, foreach, section } = loop.start();
  code.line(`${head} {`);
  code.indent();
  // Once the output has grown past a check point, `$.outputCheck` ends the render with
  // E_OUTPUT_LIMIT if it is past the limit, else flattens it (RenderState.outputCheck). A loop
  // that prints without end would otherwise fill the heap with a tree of string nodes until the
  // CPU or memory limit, and collecting that tree delays even the CPU timeout. `o.length` costs
  // nothing, a cons string knows it. Captured text is checked when the capture ends
  // (RenderState.captureEnd). The same line counts the iteration down to the next look at the
  // render's deadline (RenderState.tick, D187): a loop is what can run for long.
  code.line('if (o.length > $.outputCheckAt || --$.ticks < 0) $.loopCheck(o);');
  loop.item?.();
  cx.loopDepth++;
  if (foreach) cx.foreachLoops.push(foreach);
  if (section) cx.sectionLoops.push(section);
  cx.emitNodes(n.body);
  if (section) cx.sectionLoops.pop();
  if (foreach) cx.foreachLoops.pop();
  cx.loopDepth--;
  code.dedent();
  code.line('}');
  code.line(`P[0] = ${saved};`);
  if (n.alt && loop.otherwise) {
    code.line(`if (${loop.otherwise}) {`);
    code.indent();
    cx.emitNodes(n.alt);
    code.dedent();
    code.line('}');
  }
  code.dedent();
  code.line('}');
}
