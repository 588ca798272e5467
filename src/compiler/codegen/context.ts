/** What the emitters share while compiling one template (and the templates it includes). */
import type { Expr, Modifier, Span } from '../ast.js';
import type { TreeNode } from '../structure.js';
import type { Diagnostic, ErrorCode, SourceText, WarningCode } from '../../errors.js';
import type { CodeBuilder, Position } from './builder.js';
import { fromBytes, toBytes } from '../../value/bytes.js';
import type { PluginSet } from '../../plugins/plugin-set.js';
import type { FunctionPlugin } from '../../plugins/types.js';
import { describeUnknown } from './unknown-names.js';

/** Aliases for plugins used by a compile: `const m1 = rt.modifier("upper");` */
export class PluginAliases {
  readonly modifiers = new Map<string, string>();
  readonly functions = new Map<string, string>();
  /** The engine's own plugins among them, which the host alone runs (PluginSet.hostOnly): modifiers, then tags. */
  readonly hostModifiers = new Set<string>();
  readonly hostFunctions = new Set<string>();
  /**
   * Every plugin used whose work runs on the host (declared with `host`, block plugins, the
   * engine's own): code without any never calls the host, so a worker may render it synchronously.
   */
  readonly host = new Set<string>();
  /** Prepared modifiers, all-literal arguments: `m2, [80, "..."]` -> `p1`. */
  readonly prepared = new Map<string, string>();
  /** Identity attributes (`plugin.attr`): the literal values written, and where a variable was written instead. */
  readonly identityLiterals = new Map<string, Set<number>>();
  readonly identityFromVariables: { attr: string; template: string; line: number; column: number }[] = [];
}

/**
 * What the compile answers for an included template or custom function: its function, or why
 * there is none (`tooLarge`: its source is longer than this many characters, the limit).
 */
export type Resolution = { ref: string } | { missing: true } | { tooLarge: number };

/**
 * Diagnostics one compile keeps: past this many the compile stops (errors) or keeps no more
 * (warnings). A template with thousands of mistakes gets the first ones, in bounded time and size.
 */
export const MAX_DIAGNOSTICS = 100;

/** Thrown by EmitContext.error past MAX_DIAGNOSTICS: the compile ends with the errors so far. */
export class TooManyErrors extends Error {}

/**
 * The emitters that recurse: a block's body is statements again, an expression holds
 * expressions. Emitters reach them through the context (`cx.emitNodes(body)`, `cx.expr(e)`),
 * as Nunjucks' compiler and LiquidJS's tags do, so that no emitter imports the one that calls
 * it; compile() (index.ts) hands them over where it makes the context.
 */
export interface Emitters {
  nodes(nodes: TreeNode[], cx: EmitContext): void;
  expr(e: Expr, cx: EmitContext): string;
  /** An expression as a JavaScript boolean (`truthy(...)` unless it is one already). */
  condition(e: Expr, cx: EmitContext): string;
  /** A modifier chain applied to a compiled value. */
  modifiers(value: string, modifiers: Modifier[], cx: EmitContext): string;
}

export class EmitContext {
  readonly code: CodeBuilder;
  loopDepth = 0;
  /** Named {foreach} loops being emitted, innermost last: their state variable in the generated code. */
  readonly foreachLoops: { name: string; state: string }[] = [];
  /**
   * {section} loops being emitted, innermost last: their state variable. RenderState keeps one
   * state object per section name for the whole render (sectionStart), so inside a section's body
   * that variable is the object `$.sectionIndex(NAME)` would look up, same-named inner sections
   * included.
   */
  readonly sectionLoops: { name: string; state: string }[] = [];
  /**
   * Reads made once for the run of statements being emitted (read-once.ts): readKey -> the
   * constant that holds the value.
   */
  readonly readsOnce = new Map<string, string>();

  constructor(
    readonly src: SourceText,
    readonly templateIndex: number,
    /**
     * What `$smarty.template` is here: Smarty 2 writes the name of the file it compiles, so an
     * included template's own name (D335); null in the rendered template and in custom
     * functions, which read the render's name.
     */
    readonly includedName: string | null,
    readonly diagnostics: Diagnostic[],
    readonly aliases: PluginAliases,
    readonly plugins: PluginSet,
    code: CodeBuilder,
    private readonly resolveInclude: (name: string) => Resolution,
    private readonly resolveFunction: (key: string) => Resolution,
    private readonly emitters: Emitters,
  ) {
    this.code = code;
  }

  emitNodes(nodes: TreeNode[]): void {
    this.emitters.nodes(nodes, this);
  }

  expr(e: Expr): string {
    return this.emitters.expr(e, this);
  }

  condition(e: Expr): string {
    return this.emitters.condition(e, this);
  }

  modifiers(value: string, modifiers: Modifier[]): string {
    return this.emitters.modifiers(value, modifiers, this);
  }

  /** The function that runs a stored custom function, or null (with an error) when it does not exist. */
  functionRef(key: string, node: Span): string | null {
    const r = this.resolveFunction(key);
    if ('ref' in r) return r.ref;
    if ('missing' in r)
      this.error('E_FUNCTION_NOT_FOUND', `the custom function "${key.slice(0, 80)}" does not exist`, node);
    else
      this.error(
        'E_TEMPLATE_TOO_LARGE',
        `the custom function "${key.slice(0, 80)}" is larger than ${r.tooLarge} characters`,
        node,
      );
    return null;
  }

  /** The function that renders an included template, or null (with an error) when it does not exist. */
  includeRef(name: string, node: Span): string | null {
    const r = this.resolveInclude(name);
    if ('ref' in r) return r.ref;
    if ('missing' in r) this.error('E_INCLUDE_NOT_FOUND', `the template "${name.slice(0, 80)}" does not exist`, node);
    else
      this.error(
        'E_TEMPLATE_TOO_LARGE',
        `the template "${name.slice(0, 80)}" is larger than ${r.tooLarge} characters`,
        node,
      );
    return null;
  }

  at(node: { start: number }): Position {
    const { line, column } = this.src.position(node.start);
    return { template: this.templateIndex, line, column };
  }

  /** `// 3:14` comment text for a node (positions only: template text never enters comments). */
  where(node: { start: number }): string {
    const { line, column } = this.src.position(node.start);
    return `${line}:${column}`;
  }

  error(code: ErrorCode, message: string, node: Span): void {
    this.diagnostics.push(this.src.diagnostic('error', code, message, node.start, node.end));
    if (this.diagnostics.length > MAX_DIAGNOSTICS) throw new TooManyErrors();
  }

  warn(code: WarningCode, message: string, node: Span): void {
    if (this.diagnostics.length < MAX_DIAGNOSTICS)
      this.diagnostics.push(this.src.diagnostic('warning', code, message, node.start, node.end));
  }

  /** Escaped stray bytes from "\xNN" escapes that form valid UTF-8 become real characters. */
  normalizeString(s: string): string {
    return /[\udc80-\udcff]/.test(s) ? fromBytes(toBytes(s)) : s;
  }

  modifier(m: Modifier): string {
    const plugin = this.plugins.findModifier(m.name);
    if (!plugin) {
      const { code, message } = describeUnknown('modifier', m.name, this.plugins);
      this.error(code, message, m);
      return 'null';
    }
    const required = plugin.params.filter((p) => p.required).length;
    if (m.args.length < required) {
      const names = plugin.params.filter((p) => p.required).map((p) => p.name);
      this.error(
        'E_MODIFIER_ARGS',
        `the modifier "${m.name}" needs ${required} argument(s) (${names.join(', ')}), ${m.args.length} given`,
        m,
      );
    }
    m.args.forEach((a, i) => {
      const known = plugin.params[i]?.known;
      if (known && a.type === 'String' && !known.includes(a.value)) {
        this.warn(
          'W_UNKNOWN_ARGUMENT',
          `the modifier "${m.name}" does not know ${plugin.params[i]!.name} "${a.value.slice(0, 40)}" and passes the value through unchanged (known: ${known.join(', ')})`,
          a,
        );
      }
    });
    this.code.markNext();
    let alias = this.aliases.modifiers.get(plugin.name);
    if (!alias) {
      alias = `m${this.aliases.modifiers.size + 1}`;
      this.aliases.modifiers.set(plugin.name, alias);
      if (this.plugins.hostOnly(plugin)) this.aliases.hostModifiers.add(plugin.name);
      if (plugin.host || this.plugins.hostOnly(plugin)) this.aliases.host.add(plugin.name);
    }
    return alias;
  }

  /** The name of a modifier prepared with these literal arguments (the same text shares one). */
  prepared(modifierAlias: string, argsJs: string): string {
    const k = `${modifierAlias}, ${argsJs}`;
    let alias = this.aliases.prepared.get(k);
    if (!alias) {
      alias = `p${this.aliases.prepared.size + 1}`;
      this.aliases.prepared.set(k, alias);
    }
    return alias;
  }

  functionAlias(plugin: FunctionPlugin): string {
    this.code.markNext();
    let alias = this.aliases.functions.get(plugin.name);
    if (!alias) {
      alias = `f${this.aliases.functions.size + 1}`;
      this.aliases.functions.set(plugin.name, alias);
      if (this.plugins.hostOnly(plugin)) this.aliases.hostFunctions.add(plugin.name);
      if (plugin.host || this.plugins.hostOnly(plugin)) this.aliases.host.add(plugin.name);
    }
    return alias;
  }
}
