/**
 * The tags the compiler writes the code for itself, listed once: the structure pass pairs the
 * blocks and their alternative branch from here, the statement emitter dispatches on it, and an
 * unknown tag's suggestions include its names. Every other tag name is a plugin
 * (src/plugins/registry.ts), compiled as a call of its implementation (codegen/plugin-tag.ts).
 *
 * Which tags are built in, and which are plugins:
 * - if, elseif, else and literal: the grammar parses them into nodes of their own; they are
 *   listed for the suggestions only.
 * - foreach, section, capture, strip, include, ldelim, rdelim, break and continue: here only.
 *   They are not in the spec's plugin reference (plugins/catalog.ts) nor in the registry.
 * - function, return and set_memory: the spec lists them as plugins, so their declaration
 *   (attributes, summary, examples) stays a plugin of kind 'compiler' in the registry, like
 *   every other name of the spec (test/plugins/examples.test.ts runs its examples). This table
 *   holds only how they compile, and it wins over the plugin call; test/compiler/builtin-tags.test.ts
 *   checks that these three are the only names in both places.
 * - assign, counter, cycle and math: Smarty 2 compiles them itself, but here they are ordinary
 *   plugins that run in the isolate, so they are not listed here.
 */
import type { Tag } from './ast.js';
import type { BlockNode } from './structure.js';
import { lit } from './codegen/builder.js';
import type { EmitContext } from './codegen/context.js';
import { emitForeach } from './codegen/foreach.js';
import { emitSection } from './codegen/section.js';
import { emitCapture } from './codegen/capture.js';
import { emitInclude, emitFunctionCall } from './codegen/include.js';
import { emitLoopJump, emitReturn } from './codegen/jump.js';

export type BuiltinTag =
  /** Parsed by the grammar into a node of its own. */
  | { kind: 'grammar' }
  /** Closed by {/name}; `alternative` is the tag that opens its else branch ({foreachelse}). */
  | { kind: 'block'; alternative: string | null; emit(n: BlockNode, cx: EmitContext): void }
  /**
   * A tag with no body. `prints`: its code prints, so the line break after it stays (Smarty 2
   * swallows it after tags that print nothing; structure.ts).
   */
  | { kind: 'tag'; prints: boolean; emit(tag: Tag, cx: EmitContext): void };

const printText = (text: string) => (tag: Tag, cx: EmitContext) => cx.code.line(`o += ${lit(text)};`, cx.at(tag));

/** In the order the unknown-tag suggestions try them (the first of equally near names wins). */
const BUILTIN_TAGS: Readonly<Record<string, BuiltinTag>> = {
  if: { kind: 'grammar' },
  elseif: { kind: 'grammar' },
  else: { kind: 'grammar' },
  foreach: { kind: 'block', alternative: 'foreachelse', emit: emitForeach },
  section: { kind: 'block', alternative: 'sectionelse', emit: emitSection },
  capture: { kind: 'block', alternative: null, emit: emitCapture },
  // The text was stripped when the tree was built.
  strip: { kind: 'block', alternative: null, emit: (n, cx) => cx.emitNodes(n.body) },
  literal: { kind: 'grammar' },
  ldelim: { kind: 'tag', prints: true, emit: printText('{') },
  rdelim: { kind: 'tag', prints: true, emit: printText('}') },
  include: { kind: 'tag', prints: false, emit: emitInclude },
  break: { kind: 'tag', prints: false, emit: emitLoopJump },
  continue: { kind: 'tag', prints: false, emit: emitLoopJump },
  return: { kind: 'tag', prints: false, emit: emitReturn },
  function: { kind: 'tag', prints: false, emit: emitFunctionCall },
  // Decided before the render starts (memory-class.ts): nothing is left to run.
  set_memory: { kind: 'tag', prints: false, emit: () => {} },
};

/** A Map, not the object: a tag named `toString` or `constructor` is not built in. */
const BY_NAME = new Map(Object.entries(BUILTIN_TAGS));

export function builtinTag(name: string): BuiltinTag | undefined {
  return BY_NAME.get(name);
}

const BLOCK_OF_ALTERNATIVE = new Map<string, string>();
for (const [name, t] of Object.entries(BUILTIN_TAGS))
  if (t.kind === 'block' && t.alternative) BLOCK_OF_ALTERNATIVE.set(t.alternative, name);

/** The block whose else branch the tag `alternative` opens ({foreachelse}: foreach), if any. */
export function blockOfAlternative(alternative: string): string | undefined {
  return BLOCK_OF_ALTERNATIVE.get(alternative);
}

/** Every built-in name, alternatives after their block. */
export const BUILTIN_TAG_NAMES: readonly string[] = Object.entries(BUILTIN_TAGS).flatMap(([name, t]) =>
  t.kind === 'block' && t.alternative ? [name, t.alternative] : [name],
);
