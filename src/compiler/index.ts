/**
 * compile(source, { name }) -> { code, manifest, diagnostics }: pure, no sandbox.
 *
 * The code is one script for the isolate: `smartcage.define(name, (rt) => render)`. Included
 * templates are compiled into the same script. The manifest carries what the host must know
 * before running it: the memory class ({set_memory}), the templates in it, the plugins it
 * uses, the line table that maps generated lines back to template positions, and what the
 * compiler proved about identity attributes (literal member ids, or a variable's place).
 */
import { SourceText, TemplateError, type Diagnostic } from '../errors.js';
import { parseTemplate } from './parse.js';
import { buildTree, type TreeNode } from './structure.js';
import { CodeBuilder, CodeTooLarge, lit } from './codegen/builder.js';
import {
  EmitContext,
  MAX_DIAGNOSTICS,
  PluginAliases,
  TooManyErrors,
  type Emitters,
  type Resolution,
} from './codegen/context.js';
import { emitNodes } from './codegen/statements.js';
import { compileCondition, compileExpr, compileModifiers } from './codegen/expr.js';
import { RT_BARE_NAMES, rtCall } from './codegen/runtime-names.js';
import { BUILTIN_PLUGINS } from '../plugins/registry.js';
import type { PluginSet } from '../plugins/plugin-set.js';
import { scanMemoryClass, type MemoryClass } from './memory-class.js';
import { checkExprDepth } from './expr-depth.js';
import { parseDefaultModifiers } from './default-modifiers.js';
import { withPortingHints } from './porting-hints.js';
import type { Modifier } from './ast.js';

export const ENGINE_VERSION = '0.1.0';

export interface CompileOptions {
  /** Template name used in errors and in the line table (default "template"). */
  name?: string;
  /** Key the script registers the template under in the isolate (default: the name). */
  id?: string;
  /** Source of a stored template named by {include file=...}; undefined when it does not exist. */
  templates?: (name: string) => string | undefined | null;
  /** Source of a stored custom function called by {function name=...} or {function id=...}. */
  functions?: (key: string) => string | undefined | null;
  /**
   * Largest script the compile may generate, characters. The compile stops as soon as its code
   * grows past it, with E_TEMPLATE_TOO_LARGE (line 0): a sandbox worker then never spends long
   * compiling a giant script. Default: no limit.
   */
  maxCodeChars?: number;
  /**
   * Largest source of the template itself, characters (E_TEMPLATE_TOO_LARGE at line 0, before it
   * is parsed). The engine refuses such a template before it compiles; `smartcage check` passes
   * the engine's limit here to refuse the same. Default: no limit.
   */
  maxTemplateChars?: number;
  /** Largest source of an included template or custom function, characters (E_TEMPLATE_TOO_LARGE at the include). Default: no limit. */
  maxSourceChars?: number;
  /** The plugins templates may call: the built-in ones unless an engine adds its own (createEngine({ plugins })). */
  plugins?: PluginSet;
  /**
   * Smarty 2's `$default_modifiers` (`['escape:"html"']`): put before the modifiers of every
   * variable used as a value, unless its chain has `|smarty:nodefaults` (default-modifiers.ts).
   */
  defaultModifiers?: readonly string[];
}

export interface Manifest {
  engine: string;
  name: string;
  /** Names of the templates compiled into the script, entry first (line table indexes). */
  templates: string[];
  /** Isolate memory class in MB: 128 unless {set_memory} asks for 256, 512 or 768. */
  memoryMB: MemoryClass;
  modifiers: string[];
  functions: string[];
  /** The plugins used whose work runs on the host (tags, blocks, modifiers): none, and a render never calls the host. */
  host: string[];
  /** [generated line, template index, template line, column] */
  lineTable: [number, number, number, number][];
  /**
   * Identity attributes (`api_internal.member_id`...): the literal values the templates wrote, and
   * the places where a variable was written instead (allowed only in renders for a super user).
   */
  identity: {
    literals: Record<string, number[]>;
    fromVariables: { attr: string; template: string; line: number; column: number }[];
  };
}

export interface CompileResult {
  code: string;
  manifest: Manifest;
  diagnostics: Diagnostic[];
}

const EMITTERS: Emitters = {
  nodes: emitNodes,
  expr: compileExpr,
  condition: compileCondition,
  modifiers: compileModifiers,
};

/**
 * Thrown by a lookup (CompileOptions.templates/functions) to stop the compile: compile() passes
 * it on to its caller, where anything else thrown becomes an E_INTERNAL diagnostic. The engine
 * stops this way an inline compile that grew too big, and one whose embedder lookup failed.
 */
export class CompileAborted extends Error {}

export function compile(source: string, opts: CompileOptions = {}): CompileResult {
  try {
    return compileTemplates(source, opts);
  } catch (e) {
    if (e instanceof CompileAborted) throw e;
    // Nothing but a diagnostic comes out of a compile (a bound the checks missed, a lookup
    // function that threw): the template's name, and no host path or stack.
    const name = opts.name ?? 'template';
    const manifest: Manifest = {
      engine: ENGINE_VERSION,
      name,
      templates: [name],
      memoryMB: 128,
      modifiers: [],
      functions: [],
      host: [],
      lineTable: [],
      identity: { literals: {}, fromVariables: [] },
    };
    return { code: '', manifest, diagnostics: [internalError(name, e)] };
  }
}

function compileTemplates(source: string, opts: CompileOptions): CompileResult {
  const name = opts.name ?? 'template';
  const diagnostics: Diagnostic[] = [];
  const aliases = new PluginAliases();
  const maxCodeChars = opts.maxCodeChars ?? Infinity;
  const maxSourceChars = opts.maxSourceChars ?? Infinity;
  const plugins = opts.plugins ?? BUILTIN_PLUGINS;
  // Refused before it is read: parsing a giant text is the cost the limit exists to avoid.
  if (source.length > (opts.maxTemplateChars ?? Infinity))
    return failed(name, [name], [tooLargeSource(name, opts.maxTemplateChars!)]);
  const body = new CodeBuilder(maxCodeChars);
  const names: string[] = [name];
  // Indexes into names of the templates {include} brought in (custom functions are the others).
  const included = new Set<number>();
  const sources: string[] = [source];
  // Keys are kind-tagged so that a template named "function:f" is not the custom function f.
  const refs = new Map<string, Resolution>([[`t\0${name}`, { ref: 't0' }]]);
  let memoryMB: MemoryClass = 128;
  let defaults: readonly Modifier[] | undefined;
  if (opts.defaultModifiers?.length) {
    const read = parseDefaultModifiers(opts.defaultModifiers);
    if ('problem' in read)
      return failed(name, names, [
        {
          severity: 'error',
          code: 'E_DEFAULT_MODIFIERS',
          message: `defaultModifiers: ${read.problem}`,
          name,
          line: 0,
          column: 0,
          frame: '',
        },
      ]);
    defaults = read;
  }

  // Included templates and custom functions are compiled into the same script, once each; a
  // missing one is asked for once too (every lookup may be a round trip to the embedder).
  const resolver =
    (kind: 'template' | 'function') =>
    (key: string): Resolution => {
      const tagged = `${kind === 'template' ? 't' : 'f'}\0${key}`;
      const known = refs.get(tagged);
      if (known) return known;
      const text = kind === 'template' ? opts.templates?.(key) : opts.functions?.(key);
      let r: Resolution;
      if (typeof text !== 'string') r = { missing: true };
      else if (text.length > maxSourceChars) r = { tooLarge: maxSourceChars };
      else {
        r = { ref: `t${names.length}` };
        if (kind === 'template') included.add(names.length);
        names.push(kind === 'template' ? key : `function:${key}`);
        sources.push(text);
      }
      refs.set(tagged, r);
      return r;
    };
  const resolveInclude = resolver('template');
  const resolveFunction = resolver('function');

  try {
    for (let i = 0; i < names.length; i++) {
      const src = new SourceText(names[i], sources[i]);
      const parsed = parseTemplate(src, defaults);
      diagnostics.push(...parsed.diagnostics);
      // A file the parser gave up on has no nodes; one it recovered in goes on, for its other errors.
      if (parsed.nodes.length === 0 && parsed.diagnostics.length) continue;
      const deep = checkExprDepth(parsed.nodes, src);
      if (deep) {
        diagnostics.push(deep);
        continue;
      }
      const { tree, diagnostics: treeDiags } = buildTree(parsed.nodes, src, {
        printingTag: (tag) => plugins.findFunction(tag)?.kind === 'function',
        blockPlugin: (tag) => plugins.findFunction(tag)?.kind === 'block',
      });
      diagnostics.push(...treeDiags.slice(0, MAX_DIAGNOSTICS + 1));
      if (diagnostics.length > MAX_DIAGNOSTICS) throw new TooManyErrors();
      if (i === 0) memoryMB = scanMemoryClass(parsed.nodes, src, diagnostics);
      emitTemplateFunction(
        `t${i}`,
        tree,
        new EmitContext(
          src,
          i,
          included.has(i) ? names[i] : null,
          diagnostics,
          aliases,
          plugins,
          body,
          resolveInclude,
          resolveFunction,
          EMITTERS,
        ),
      );
    }
  } catch (e) {
    if (e instanceof TooManyErrors) return failed(name, names, diagnostics.slice(0, MAX_DIAGNOSTICS + 1));
    if (e instanceof CodeTooLarge)
      return failed(name, names, [...diagnostics.slice(0, MAX_DIAGNOSTICS), tooLarge(name, maxCodeChars)]);
    throw e;
  }

  const head = new CodeBuilder();
  head.line(`// smartcage ${ENGINE_VERSION}: compiled from template ${lit(name)}. Comments give template line:column.`);
  // A function expression in parentheses is one V8 compiles with the script instead of at its
  // first call (its "possibly invoked" heuristic). Compiled lazily, the factory's text was parsed
  // again when define ran and each template function's again at its first render: a new page's
  // first output took ~100 µs longer (bench/README.md).
  head.line(`smartcage.define(${lit(opts.id ?? name)}, (function (rt) {`);
  head.indent();
  head.line('"use strict";');
  // The names the script relies on: codegen/runtime-names.ts.
  head.line(`const { ${RT_BARE_NAMES} } = rt;`);
  // The position slot: generated code stores the line-table index of loops and plugin calls here.
  head.line(`const P = ${rtCall('where', '')};`);
  // An engine's own plugins are not in the isolate's runtime: their aliases call the host by name.
  for (const [plugin, alias] of aliases.modifiers)
    head.line(
      `const ${alias} = ${rtCall(aliases.hostModifiers.has(plugin) ? 'hostModifier' : 'modifier', lit(plugin))};`,
    );
  for (const [plugin, alias] of aliases.functions)
    head.line(`const ${alias} = ${rtCall(aliases.hostFunctions.has(plugin) ? 'hostFn' : 'fn', lit(plugin))};`);
  for (const [args, alias] of aliases.prepared) head.line(`const ${alias} = ${rtCall('prepare', args)};`);
  const offset = head.lineCount;
  const tail = '  return t0;\n}));\n';
  if (head.length + body.length + tail.length > maxCodeChars)
    return failed(name, names, [...diagnostics.slice(0, MAX_DIAGNOSTICS), tooLarge(name, maxCodeChars)]);
  const code = head.toString() + body.toString() + tail;

  return {
    code,
    manifest: {
      engine: ENGINE_VERSION,
      name,
      templates: names,
      memoryMB,
      modifiers: Array.from(aliases.modifiers.keys()),
      functions: Array.from(aliases.functions.keys()),
      host: Array.from(aliases.host),
      lineTable: body.lineTable().map(([line, t, l, c]) => [line + offset, t, l, c]),
      identity: {
        literals: Object.fromEntries(
          Array.from(aliases.identityLiterals, ([k, v]) => [k, Array.from(v).sort((a, b) => a - b)]),
        ),
        fromVariables: aliases.identityFromVariables,
      },
    },
    diagnostics: withPortingHints(
      inReadingOrder(
        diagnostics.length > MAX_DIAGNOSTICS + 1 ? diagnostics.slice(0, MAX_DIAGNOSTICS + 1) : diagnostics,
      ),
      sourcesByName(names, sources),
    ),
  };
}

function sourcesByName(names: string[], sources: string[]): Map<string, string> {
  return new Map(names.map((n, i) => [n, sources[i]!]));
}

/**
 * Diagnostics as a reader meets them: template by template in the order the compile first met
 * each (the main one first), then by line and column. The passes find them in their own order
 * (the structure pass reports a closing tag before the codegen reports the tag it closes).
 */
function inReadingOrder(diagnostics: Diagnostic[]): Diagnostic[] {
  const order = new Map<string, number>();
  for (const d of diagnostics) if (!order.has(d.name)) order.set(d.name, order.size);
  return diagnostics
    .map((d, i) => ({ d, i }))
    .sort(
      (a, b) =>
        order.get(a.d.name)! - order.get(b.d.name)! || a.d.line - b.d.line || a.d.column - b.d.column || a.i - b.i,
    )
    .map((x) => x.d);
}

/** A compile that stopped early (too many errors, code too large): no code, the diagnostics so far. */
function failed(name: string, names: string[], diagnostics: Diagnostic[]): CompileResult {
  return {
    code: '',
    manifest: {
      engine: ENGINE_VERSION,
      name,
      templates: names,
      memoryMB: 128,
      modifiers: [],
      functions: [],
      host: [],
      lineTable: [],
      identity: { literals: {}, fromVariables: [] },
    },
    diagnostics: inReadingOrder(diagnostics),
  };
}

function tooLarge(name: string, maxCodeChars: number): Diagnostic {
  return {
    severity: 'error',
    code: 'E_TEMPLATE_TOO_LARGE',
    message: `the compiled code of the template and its includes is larger than ${maxCodeChars} characters (the limit maxCodeChars); split it into smaller templates`,
    name,
    line: 0,
    column: 0,
    frame: '',
  };
}

function tooLargeSource(name: string, maxSourceChars: number): Diagnostic {
  return {
    severity: 'error',
    code: 'E_TEMPLATE_TOO_LARGE',
    message: `the template is larger than ${maxSourceChars} characters; split it into smaller templates`,
    name,
    line: 0,
    column: 0,
    frame: '',
  };
}

function emitTemplateFunction(fnName: string, tree: TreeNode[], cx: EmitContext): void {
  const code = cx.code;
  code.indent();
  code.line('');
  code.line(`const ${fnName} = (function ${fnName}(s, $) { // ${lit(cx.src.name).slice(0, 200)}`);
  code.indent();
  code.line('let o = "";');
  if (containsReturn(tree)) {
    // {return} ends this template; what it printed so far is kept.
    code.line('try {');
    code.indent();
    cx.emitNodes(tree);
    code.dedent();
    code.line('} catch (e) {');
    code.line('  if (!$.isStop(e)) throw e;');
    code.line('}');
  } else {
    cx.emitNodes(tree);
  }
  code.line('return o;');
  code.dedent();
  code.line('});');
  code.dedent();
}

function containsReturn(nodes: TreeNode[]): boolean {
  return nodes.some((n) => {
    switch (n.kind) {
      case 'tag':
        return n.tag.name === 'return';
      case 'if':
        return n.branches.some((b) => containsReturn(b.body)) || (n.otherwise !== null && containsReturn(n.otherwise));
      case 'block':
        return containsReturn(n.body) || (n.alt !== null && containsReturn(n.alt));
      default:
        return false;
    }
  });
}

function internalError(name: string, e: unknown): Diagnostic {
  if (e instanceof TemplateError)
    return {
      severity: 'error',
      code: e.code,
      message: e.message,
      name: e.template,
      line: e.line,
      column: e.column,
      frame: e.frame,
    };
  const overflow = e instanceof RangeError && /call stack/i.test(e.message);
  const message = overflow
    ? 'the template nests too deeply to compile (line unknown)'
    : `internal compiler error (${e instanceof Error ? e.name : typeof e}): the template could not be compiled`;
  return {
    severity: 'error',
    code: overflow ? 'E_NESTING_TOO_DEEP' : 'E_INTERNAL',
    message,
    name,
    line: 0,
    column: 0,
    frame: '',
  };
}

/** The first error of a compile as a TemplateError (for APIs that throw). */
export function firstError(diagnostics: readonly Diagnostic[]): TemplateError | null {
  const d = diagnostics.find((x) => x.severity === 'error');
  return d ? new TemplateError(d, diagnostics) : null;
}
