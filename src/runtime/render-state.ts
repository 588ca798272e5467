/**
 * `$` in generated code: everything one render keeps besides its variables: loop and
 * capture state ($smarty.foreach / .section / .capture, global like Smarty 2's), plugin
 * state, the request data, warnings. It is also the PluginContext function plugins see.
 */
import { PhpArray, PhpObject, type Value } from '../value/value.js';
import { toInt, toBool, PhpTypeError } from '../value/convert.js';
import { normalizeKey } from '../value/php-array.js';
import { assignVar, newScope, share, type Scope } from '../value/assign.js';
import type { PluginContext, SiteSettings } from '../plugins/types.js';
import { constantValue } from '../php/constants.js';
import { replaceEach } from '../value/replace-each.js';
import { LimitError } from '../value/limits.js';
import { Random } from './random.js';
import { callByReference, type BoundModifier } from './modifiers.js';
import { callHostBlock, callHostModifier } from './host-call.js';
import { findFunction } from '../plugins/registry.js';
import { checkReturnSize } from './return-size.js';
import { whereSlotNow } from './where.js';
import type { LogLevel } from '../protocol/log.js';

/**
 * Checks between two looks at the clock. An iteration of an empty loop costs a few ns and
 * `Date.now()` ~25-40; a body of plugin calls costs µs, so 32 of them overshoot a deadline by
 * well under a ms.
 */
const TICKS = 32;
/** Taken before the lockdown; the clock of the render's deadline. */
const clock = Date.now;
/** What a cut render throws: nothing reads it (the render's answer is `overSlice`). */
export const SLICE_CUT = Object.freeze({ sliceCut: true });

export interface RenderInput {
  templateName: string;
  now: number;
  site: SiteSettings;
  validate: boolean;
  request: Record<string, Value>;
  constants: Record<string, Value>;
  maxIncludeDepth: number;
  /** 16 random bytes from the host for the render's generator. */
  seed: readonly number[];
  /** The output limit (characters); loops check it as they go (src/compiler/codegen/loop.ts). */
  maxOutputChars?: number;
}

export interface LogLine {
  level: LogLevel;
  message: string;
}

interface ForeachState {
  total: number | null;
  iteration: number | null;
}

export interface SectionState {
  /** The value the section was named by (`name=5` names it with an int, as in Smarty 2). */
  name: Value;
  loop: number;
  start: number;
  step: number;
  max: number;
  total: number;
  show: boolean;
  /** null until the body first runs: a loop that never runs leaves them unset (Smarty 2). */
  index: number | null;
  iteration: number | null;
}

/** A section's property as its state record `s` says it (RenderState.sectionProp, sectionPropOf). */
function sectionStateProp(s: SectionState, prop: string): Value {
  switch (prop) {
    case 'total':
      return s.total;
    case 'loop':
      return s.loop;
    case 'show':
      return s.show;
    case 'start':
      return s.start;
    case 'step':
      return s.step;
    case 'max':
      return s.max;
    case 'name':
      return s.name;
  }
  if (s.iteration === null || s.index === null) return null;
  if (prop === 'index') return s.index;
  if (prop === 'iteration') return s.iteration;
  // Smarty 2 sets the other properties at the top of each pass, so after the loop they keep the
  // last pass's values while index and iteration have moved one step on. A loop that ran to its
  // end has iteration = total + 1; one left with {break} stopped inside its last pass.
  const rownum = Math.min(s.iteration, s.total);
  const index = s.start + (rownum - 1) * s.step;
  switch (prop) {
    case 'rownum':
      return rownum;
    case 'index_prev':
      return index - s.step;
    case 'index_next':
      return index + s.step;
    case 'first':
      return rownum === 1;
    case 'last':
      return rownum === s.total;
    default:
      return null;
  }
}

/**
 * The key of Smarty 2's table of loops that a loop's name is: PHP's array key as a string, so
 * `5`, `"5"` and `5.5` name one loop, `true` is `"1"`, `false` `"0"`, null `""`. An array or an
 * object is no key (PHP 8's "Illegal offset type"): null.
 */
function loopKey(name: Value): string | null {
  if (typeof name === 'string') {
    const c = name.charCodeAt(0);
    return (c >= 48 && c <= 57) || c === 45 ? String(normalizeKey(name)) : name;
  }
  if (name instanceof PhpArray || name instanceof PhpObject) return null;
  return String(normalizeKey(name));
}

/** A loop started with a name that is no key fails the page, as PHP 8's TypeError does. */
function startKey(name: Value): string {
  const k = loopKey(name);
  if (k === null)
    throw new PhpTypeError(
      `a loop cannot be named by ${name instanceof PhpArray ? 'an array' : 'an object'} (PHP 8: Illegal offset type)`,
    );
  return k;
}

const STOP = { stop: true };

/**
 * Smarty 2's append() runs settype($var, 'array') on a variable that is not an array yet: null
 * becomes an empty array, any other scalar (even '', 0 and false) the first element, and an
 * object its properties.
 */
function asArrayForAppend(current: Value): PhpArray {
  if (current instanceof PhpArray) return current.forWrite();
  if (current === null || current === undefined) return PhpArray.empty();
  if (current instanceof PhpObject)
    return PhpArray.fromEntries(Array.from(current.props, ([k, v]) => [k, share(v)] as const));
  return PhpArray.fromList([current]);
}

function escapeCode(n: number): string {
  return n > 0xff ? `\\u${n.toString(16).padStart(4, '0')}` : `\\x${n.toString(16).padStart(2, '0')}`;
}

/** The keys of a section's record, in the order Smarty 2 sets them (RenderState.sectionRecord). */
const SECTION_PROPS = [
  'name',
  'loop',
  'show',
  'max',
  'step',
  'start',
  'total',
  'index',
  'iteration',
  'rownum',
  'index_prev',
  'index_next',
  'first',
  'last',
] as const;

export class RenderState implements PluginContext {
  scope: Scope;
  readonly now: number;
  readonly site: SiteSettings;
  readonly validate: boolean;
  readonly templateName: string;
  readonly warnings: string[] = [];
  /** Where each warning was raised: the position slot's line-table index then (0: none). */
  readonly warningsAt: number[] = [];
  readonly logs: LogLine[] = [];
  /** Where each log line was written: the position slot's line-table index then (0: none). */
  readonly logsAt: number[] = [];
  private readonly rng: Random;
  private readonly requestData: Record<string, Value>;
  private readonly constants: Record<string, Value>;
  /*
   * Made at their first write (D305): most renders name no loop, section, capture or plugin state,
   * and four empty Maps were a tenth of what an empty render allocates. A render cut by its slice
   * leaves them with its state object, which the next render does not reuse.
   */
  private foreaches: Map<string, ForeachState> | null = null;
  private sections: Map<string, SectionState> | null = null;
  private captures: Map<string, string> | null = null;
  private pluginState: Map<string, unknown> | null = null;
  private includeDepth = 0;
  /** {function} calls under way: a {return} inside one gives its caller a value that stays in the isolate. */
  private functionDepth = 0;
  private readonly maxIncludeDepth: number;
  readonly maxOutput: number;
  /** The output length at which loops next call outputCheck (src/compiler/codegen/loop.ts). */
  outputCheckAt: number;
  /**
   * Loop iterations, {include}s and {function} calls left before the next look at the clock
   * (`tick`). Generated loops count it down in the line that checks the output, so a render with
   * no deadline pays a decrement per iteration and a call every TICKS.
   */
  ticks = TICKS;
  /** The `Date.now()` past which the render stops itself (`startDeadline`); none by default. */
  private deadline = Infinity;
  /** The deadline passed: the render's work is discarded whatever it does next (`tick`). */
  cut = false;
  returnValue: Value = null;

  constructor(scope: Scope, input: RenderInput) {
    this.scope = scope;
    this.now = input.now;
    this.site = input.site;
    this.validate = input.validate;
    this.templateName = input.templateName;
    this.requestData = input.request;
    this.constants = input.constants;
    this.maxIncludeDepth = input.maxIncludeDepth;
    this.maxOutput = input.maxOutputChars ?? Infinity;
    this.outputCheckAt = Math.min(64 * 1024, this.maxOutput);
    this.rng = new Random(input.seed);
  }

  /**
   * Called by a loop when the output (or a capture being built) passed `outputCheckAt`: past the
   * limit the render ends. Otherwise the output is flattened (V8 flattens a cons string in place
   * when it is read) and the next check is at twice its length, never past the limit. Each
   * `o +=` adds a node to a tree the collector must trace; flat, it is one string with nothing
   * inside. Measured on an endless loop printing its index under a 200 ms CPU budget: overshoot
   * p90 45-48 ms -> 17-23 ms, p98 49-55 ms -> 27-29 ms. Amortized, each character is copied
   * about twice.
   */
  outputCheck(o: string): void {
    if (o.length > this.maxOutput) this.outputLimit(o.length);
    o.charCodeAt(0);
    this.outputCheckAt = Math.min(o.length * 2, this.maxOutput);
  }

  /**
   * Each iteration of a generated loop comes here when the output passed its check point or the
   * tick count ran out (src/compiler/codegen/loop.ts).
   */
  loopCheck(o: string): void {
    if (o.length > this.outputCheckAt) this.outputCheck(o);
    if (this.ticks < 0) this.tick();
  }

  /**
   * A render in a synchronous slice of the embedding process stops itself `ms` after it starts
   * (docs/decisions.md D187): it then does not depend on isolated-vm's timer thread, which a
   * loaded machine wakes late, to give the embedder's event loop back.
   */
  startDeadline(ms: number): void {
    this.deadline = clock() + ms;
  }

  /**
   * Looks at the clock. Past the deadline the render is cut: it throws, and every later check
   * throws again at once (`ticks` stays spent), so a runtime `catch` that turned the first throw
   * into a warning only lets straight-line code run before the next loop iteration, include or
   * function call stops it. The render answers `overSlice` whatever happened meanwhile
   * (isolate-entry.ts), and the host runs it again asynchronously from the start.
   */
  tick(): void {
    if (this.cut || clock() > this.deadline) {
      this.cut = true;
      this.ticks = 0;
      throw SLICE_CUT;
    }
    this.ticks = TICKS;
  }

  /**
   * A host call of this render in the synchronous slice could not be answered at once
   * (E_SLICE_YIELD, D268): the render is cut as at its deadline, and the host runs it again
   * asynchronously from the start.
   */
  yieldSlice(): never {
    this.cut = true;
    this.ticks = 0;
    throw SLICE_CUT;
  }

  /** A loop found the output (or a capture) past the limit. */
  outputLimit(length: number): never {
    throw new LimitError(`the output is ${length} characters, over the limit of ${this.maxOutput}`, 'E_OUTPUT_LIMIT');
  }

  // ---- PluginContext
  get(name: string): Value {
    const v = this.scope[name];
    return v === undefined ? null : v;
  }

  assign(name: string, value: Value): void;
  assign(scope: Scope, name: string, value: Value): void;
  assign(a: string | Scope, b: Value, c?: Value): void {
    if (typeof a === 'string') assignVar(this.scope, a, b);
    else assignVar(a, String(b), c ?? null);
  }

  state<T>(key: string, init: () => T): T {
    const states = (this.pluginState ??= new Map());
    let v = states.get(key) as T | undefined;
    if (v === undefined) {
      v = init();
      states.set(key, v);
    }
    return v;
  }

  warn(message: string): void {
    if (this.warnings.length >= 100) return;
    this.warnings.push(message.slice(0, 1000));
    this.warningsAt.push(whereSlotNow()[0] ?? 0);
  }

  random(): number {
    return this.rng.next();
  }

  askHost(modifier: string, input: Value, args: Value[]): Value {
    return callHostModifier(modifier, input, args);
  }

  /** Control characters are written as escapes, so that a message cannot forge log lines (OPS-15). */
  log(level: LogLine['level'], message: string): void {
    if (this.logs.length >= 1000) return;
    const safe = replaceEach(
      message,
      /[\x00-\x1f\x7f\u2028\u2029]/g,
      (c) => (c === '\n' ? '\\n' : c === '\r' ? '\\r' : c === '\t' ? '\\t' : escapeCode(c.charCodeAt(0))),
      'logger',
    );
    this.logs.push({ level, message: safe });
    this.logsAt.push(whereSlotNow()[0] ?? 0);
  }

  // ---- block plugins ({read_dir}...{/read_dir})
  hostBlock(plugin: string, attrs: Record<string, Value>): { name: string; items: Value[] } {
    const answer = callHostBlock(plugin, attrs, this);
    const items = findFunction(plugin)?.items;
    return items ? { name: answer.name, items: items(answer.items, attrs, this) } : answer;
  }

  // ---- {$list|@sort}
  byReference(m: BoundModifier, input: Value, args: Value[], store: (v: Value) => void): Value {
    return callByReference(m, input, args, store, this);
  }

  // ---- $smarty.foreach
  /**
   * Smarty 2 keeps one state record per name, which every loop of that name reads and writes:
   * an inner {foreach} of the same name resets it, and the outer loop then counts on from where
   * the inner one stopped. So a record, once made, is reused (the loop code holds it).
   */
  foreachStart(name: Value, total: number): ForeachState {
    const key = startKey(name);
    const loops = (this.foreaches ??= new Map());
    const f = loops.get(key);
    if (!f) {
      const made = { total, iteration: 0 };
      loops.set(key, made);
      return made;
    }
    f.total = total;
    f.iteration = 0;
    return f;
  }

  /**
   * A pass of a {foreach} named by a variable: Smarty 2 reads the name again at each pass and
   * counts the loop it names now (`$this->_foreach[$name]['iteration']++`), so a body that
   * changes the variable, or an item that is the variable, counts another loop, one that no loop
   * started if need be.
   */
  foreachNext(name: Value): void {
    const key = startKey(name);
    const loops = (this.foreaches ??= new Map());
    const f = loops.get(key);
    if (f) f.iteration = (f.iteration ?? 0) + 1;
    else loops.set(key, { total: null, iteration: 1 });
  }

  foreachProp(name: Value, prop: string): Value {
    const key = loopKey(name);
    const f = key === null ? undefined : this.foreaches?.get(key);
    const total = f ? f.total : null;
    const iteration = f ? f.iteration : null;
    // Smarty 2 derives these from iteration and total, so they also hold after the loop
    // and for names never looped (index -1, first and last true).
    switch (prop) {
      case 'total':
        return total;
      case 'iteration':
        return iteration;
      case 'index':
        return (iteration ?? 0) - 1;
      case 'first':
        return (iteration ?? 0) <= 1;
      case 'last':
        return iteration === total;
      case 'show':
        return (total ?? 0) > 0;
      default:
        return null;
    }
  }

  /**
   * `$smarty.foreach.NAME` itself: Smarty 2's record of the loop, `total` and `iteration` in that
   * order, or null for a name no loop has run (a template may test a misspelt name). A record
   * that only a pass counted (foreachNext) has no total.
   */
  foreachRecord(name: Value): Value {
    const key = loopKey(name);
    const f = key === null ? undefined : this.foreaches?.get(key);
    if (!f) return null;
    if (f.total === null) return PhpArray.fromEntries([['iteration', f.iteration]]);
    return PhpArray.fromEntries([
      ['total', f.total],
      ['iteration', f.iteration],
    ]);
  }

  // ---- $smarty.section
  sectionStart(name: Value, a: { loop: Value; start: Value; step: Value; max: Value; show: Value }): SectionState {
    const key = startKey(name);
    const loop = a.loop === undefined ? 1 : a.loop instanceof PhpArray ? a.loop.size : Math.max(0, toInt(a.loop));
    let step = a.step === undefined ? 1 : toInt(a.step);
    if (step === 0) step = 1;
    let max = a.max === undefined ? loop : toInt(a.max);
    if (max < 0) max = loop;
    let start: number;
    if (a.start === undefined) start = step > 0 ? 0 : loop - 1;
    else {
      start = toInt(a.start);
      if (start < 0) start = Math.max(step > 0 ? 0 : -1, start + loop);
      else start = Math.min(start, step > 0 ? loop : loop - 1);
    }
    let show = a.show === undefined ? true : toBool(a.show);
    let total: number;
    if (a.start === undefined && a.step === undefined && a.max === undefined) total = loop;
    else total = Math.min(Math.ceil((step > 0 ? loop - start : start + 1) / Math.abs(step)), max);
    if (total === 0) show = false;
    if (!show) total = 0;
    // One record per name, as for {foreach} (foreachStart): an inner {section} of the same name
    // takes over the outer one's counters, as in Smarty 2, where both loops index one array entry.
    // Written field by field: an inner section starts once per pass of its outer one.
    const sections = (this.sections ??= new Map());
    const s = sections.get(key);
    if (!s) {
      const fresh: SectionState = { name, loop, start, step, max, total, show, index: null, iteration: null };
      sections.set(key, fresh);
      return fresh;
    }
    s.name = name;
    s.loop = loop;
    s.start = start;
    s.step = step;
    s.max = max;
    s.total = total;
    s.show = show;
    s.index = null;
    s.iteration = null;
    return s;
  }

  sectionIndex(name: string): Value {
    const s = this.sections?.get(name);
    return s ? s.index : null;
  }

  sectionProp(name: Value, prop: string): Value {
    const key = loopKey(name);
    const s = key === null ? undefined : this.sections?.get(key);
    return s ? sectionStateProp(s, prop) : null;
  }

  /**
   * `$smarty.section.NAME.PROP` inside the body of the section NAME, from the state variable its
   * `sectionStart` returned: the record `sectionProp` would find by name (docs/decisions.md D219,
   * D279), without the lookup.
   */
  sectionPropOf(s: SectionState, prop: string): Value {
    return sectionStateProp(s, prop);
  }

  /**
   * `$smarty.section.NAME` itself: every property in the order Smarty 2 sets them. The first seven
   * are set before the loop; a section that never made a pass has no others.
   */
  sectionRecord(name: Value): Value {
    const key = loopKey(name);
    const s = key === null ? undefined : this.sections?.get(key);
    if (!s) return null;
    const props = SECTION_PROPS.slice(0, s.iteration === null || s.index === null ? 7 : undefined);
    return PhpArray.fromEntries(props.map((p) => [p, sectionStateProp(s, p)]));
  }

  // ---- $smarty.capture
  capture(name: string): Value {
    return this.captures?.get(name) ?? null;
  }

  captureArray(): Value {
    return PhpArray.fromEntries(this.captures?.entries() ?? []);
  }

  captureEnd(name: Value, text: string, assignTo: Value, appendTo: Value): void {
    // Captured text is output held back: the same limit, or a capture that feeds on itself in a
    // loop grows until the memory limit.
    if (text.length > this.maxOutput) this.outputLimit(text.length);
    (this.captures ??= new Map()).set(name === null || name === undefined ? 'default' : String(name), text);
    if (assignTo !== null && assignTo !== undefined) assignVar(this.scope, String(assignTo), text);
    if (appendTo !== null && appendTo !== undefined) {
      const target = String(appendTo);
      if (target === '') return;
      const arr = asArrayForAppend(this.scope[target]);
      arr.push(text);
      this.scope[target] = arr;
    }
  }

  // ---- other $smarty values
  constant(name: string): Value {
    if (Object.hasOwn(this.constants, name)) return this.constants[name];
    const v = constantValue(name);
    if (v === undefined) this.warn(`undefined constant ${name}`);
    return v ?? null;
  }

  /**
   * PHP always has `$_GET`, `$_POST`, `$_REQUEST` and `$_SERVER`, empty arrays when a render is
   * given none (`{$smarty.get}` prints `Array`, escape maps over it); `$_SESSION` exists only once
   * a session has started (D325).
   */
  request(kind: string): Value {
    return this.requestData[kind] ?? (kind === 'session' ? null : PhpArray.empty());
  }

  // ---- {include}
  include(fn: (s: Scope, $: RenderState) => string, caller: Scope, params: Record<string, Value>): string {
    if (--this.ticks < 0) this.tick();
    if (this.includeDepth >= this.maxIncludeDepth)
      throw new LimitError(`{include} nested deeper than ${this.maxIncludeDepth} levels`, 'E_RECURSION_LIMIT');
    // The included template works on a copy of the caller's variables (Smarty 2).
    const scope = newScope();
    for (const k in caller) scope[k] = caller[k];
    for (const k in params) assignVar(scope, k, params[k]);
    for (const k in scope) {
      const v = scope[k];
      if (v instanceof PhpArray) v.shared = true;
    }
    const saved = this.scope;
    this.scope = scope;
    this.includeDepth++;
    try {
      return fn(scope, this);
    } finally {
      this.includeDepth--;
      this.scope = saved;
    }
  }

  // ---- {function}
  callFunction(fn: (s: Scope, $: RenderState) => string, params: Record<string, Value>): Value {
    if (--this.ticks < 0) this.tick();
    if (this.includeDepth >= this.maxIncludeDepth)
      throw new LimitError(`{function} calls nested deeper than ${this.maxIncludeDepth} levels`, 'E_RECURSION_LIMIT');
    const scope = newScope();
    scope.dataSet = this.scope.dataSet ?? null;
    for (const k in params) assignVar(scope, k, share(params[k]));
    const saved = { scope: this.scope, returnValue: this.returnValue };
    this.scope = scope;
    this.returnValue = null;
    this.includeDepth++;
    this.functionDepth++;
    try {
      fn(scope, this);
      return this.returnValue;
    } finally {
      this.functionDepth--;
      this.includeDepth--;
      this.scope = saved.scope;
      this.returnValue = saved.returnValue;
    }
  }

  // ---- {return}
  stop(value: Value): unknown {
    // The render's own value is copied out to the host: measured here, so that a value too big
    // to copy is refused at the {return} line, before it leaves the isolate.
    if (this.functionDepth === 0) checkReturnSize(value, this.maxOutput);
    this.returnValue = value;
    return STOP;
  }

  isStop(e: unknown): boolean {
    return e === STOP;
  }
}
