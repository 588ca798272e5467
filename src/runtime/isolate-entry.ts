/**
 * The script every render context runs first. It defines one global, `smartcage`, through which
 * the host registers compiled templates and renders them.
 *
 * Values cross the boundary as plain data (structured clone): variables come in as plain data or
 * JSON text (protocol/vars.ts) and are converted to PHP values here (./vars.ts); the output goes
 * back as a string, capped here so that an oversized result never reaches the host.
 */
import { rt, setCurrent, type TemplateApi } from './template-api.js';
import { setWhere } from './where.js';
import { RenderState } from './render-state.js';
import { fromJS, toJSShared, PhpArray, PhpFloat, PhpObject, type Value } from '../value/value.js';
import { newScope, type Scope } from '../value/assign.js';
import { readVars } from './vars.js';
import { installHost, useHostNow } from './host-call.js';
import { checkReturnSize } from './return-size.js';
import { harden, lockdown, builtinsIntact } from './lockdown.js';
import { ALL_PLUGINS } from '../plugins/registry.js';
import type { RenderAnswer, RenderRequest, RenderResponse } from '../protocol/render.js';

type Render = (s: Scope, $: RenderState) => string;

const templates = new Map<string, Render>();
let rendering = false;
/** V8's full collection, when the process exposes it (`smartcage.reduceMemory`). */
let collectAll: (() => void) | null = null;

/** Globals removed from every render context (docs/security.md IS-02, IS-07, IS-08). */
const REMOVED_GLOBALS = ['WebAssembly', 'SharedArrayBuffer', 'Atomics', 'eval'];

const smartcage = {
  /**
   * Takes the bridge functions the host put in `__hostCall` and `__hostCallNow` (isolated-vm
   * References), keeps them in closures, and deletes them and the dangerous globals from the context.
   */
  bootstrap(): void {
    const g = globalThis as Record<string, unknown>;
    type HostRef = {
      applySyncPromise(recv: undefined, args: [string, string]): string;
      applySync(recv: undefined, args: [string, string]): string;
    };
    const ref = g.__hostCall as HostRef | undefined;
    const refNow = g.__hostCallNow as HostRef | undefined;
    delete g.__hostCall;
    delete g.__hostCallNow;
    // On the async path the host may answer through a promise; in the slice it answers at once (D268).
    if (ref && refNow)
      installHost(
        (kind, request) => ref.applySyncPromise(undefined, [kind, request]),
        (kind, request) => refNow.applySync(undefined, [kind, request]),
      );
    // The position slot the host shares (a view of a SharedArrayBuffer: the host only reads it).
    const where = g.__where;
    delete g.__where;
    if (where instanceof Int32Array && where.length >= 1) {
      setWhere(where);
      // Its buffer leads to SharedArrayBuffer and its prototype, which the global no longer names.
      harden(where.buffer);
    }
    // A sandbox worker starts with --expose-gc for the host's idle collection (`reduceMemory`).
    // V8 makes that global non-configurable: it cannot be deleted, so it is kept here and the
    // global left holding undefined, read-only (docs/security.md IS-02).
    const gc = g.gc;
    if (typeof gc === 'function') {
      collectAll = () =>
        (gc as (o: Record<string, string>) => void)({ type: 'major', execution: 'sync', flavor: 'last-resort' });
      Object.defineProperty(g, 'gc', { value: undefined, writable: false });
    }
    for (const name of REMOVED_GLOBALS) delete g[name];
    // Its segment objects have prototypes that only an instance reaches, for the lockdown to
    // freeze, and a process's first instance costs ~12 ms of ICU loading. Nothing here uses it.
    delete (Intl as unknown as Record<string, unknown>).Segmenter;
    dropExamples();
    lockdown([smartcage, rt, RenderState, PhpArray, PhpObject, PhpFloat, ...ALL_PLUGINS]);
  },

  /** Registers a compiled template; refused while a render runs (a render cannot replace code). */
  define(name: string, factory: (api: TemplateApi) => Render): void {
    if (rendering) throw new Error('templates cannot be defined during a render');
    templates.set(name, factory(rt));
  },

  has(name: string): boolean {
    return templates.has(name);
  },

  /**
   * A collection that gives back what it can (V8's last-resort GC: the young generation's idle
   * half and old-space pages compacted away), for an isolate that went idle. False where the
   * process has no `gc` to take (one started without --expose-gc).
   */
  reduceMemory(): boolean {
    if (rendering || !collectAll) return false;
    collectAll();
    return true;
  },

  /**
   * Renders; never throws: errors come back as data with a code (a thrown object cannot carry one
   * out). The host may call it synchronously for a bounded slice (src/sandbox/sync-slice.ts):
   * then `sliceOutputChars` is set, and a longer output is not copied out on the host's thread
   * but answered `overSlice`. A slice that ran out was cut where it stood, its `finally` blocks
   * not run: the host renders again at once with `afterCut`, which clears what they restore.
   * With `sliceMs` the render also cuts itself that long after it starts (RenderState.tick, D187)
   * and answers `overSlice`, its `finally` blocks run. `hostNow` (with `sliceMs`): the host answers
   * this render's host calls at once (D268), through the slice's host function.
   * `req`: the request as data, or as JSON text (src/sandbox/request.ts `requestText`, D299).
   */
  render(
    name: string,
    req: RenderRequest | string,
    sliceOutputChars = 0,
    afterCut = false,
    sliceMs = 0,
    hostNow = false,
  ): RenderAnswer {
    try {
      if (afterCut) {
        rendering = false;
        setCurrent(null);
        useHostNow(null);
      }
      const request = typeof req === 'string' ? (JSON.parse(req) as RenderRequest) : req;
      const response = renderOnce(name, request, sliceMs, hostNow === true && sliceMs > 0);
      if (!builtinsIntact()) response.contextTainted = true;
      if (sliceOutputChars > 0 && typeof response.output === 'string' && response.output.length > sliceOutputChars)
        return { overSlice: true };
      return shortAnswer(response);
    } catch {
      // Nothing thrown leaves: isolated-vm would read a thrown object's `message` on the way
      // out, outside its timeout, and a getter there that never returns would hold the caller
      // (docs/security.md IS-05). What was thrown is not read here either.
      return { error: { code: 'E_RUNTIME', message: 'the render failed', stack: '' } };
    }
  },
};

/** Outputs shorter than this with nothing else to say are answered as the string alone (D276). */
const SHORT_ANSWER_CHARS = 512;

/**
 * A short output with nothing else to say is the answer itself (D276): under 1 KB, isolated-vm
 * copies a string result as an ordinary string on the host, where an object of one field is
 * serialized here and deserialized there. Longer ones stay in the object: isolated-vm makes them
 * external strings on the host, whose memory the host's GC counts, and the list page lost more
 * that way than the copy saves. The host reads a string as `{ output }` (`responseOf`).
 */
function shortAnswer(response: RenderResponse): RenderAnswer {
  const output = response.output;
  if (typeof output !== 'string' || output.length >= SHORT_ANSWER_CHARS) return response;
  for (const k in response) if (k !== 'output') return response;
  return output;
}

/**
 * The plugins' runnable examples are for the docs and the tests on the host; in every isolate
 * they were hundreds of objects that the lockdown froze one by one and the heap kept. Replaced, not
 * deleted: a deleted property would put each declaration in V8's slow dictionary mode.
 */
function dropExamples(): void {
  const none = Object.freeze([]) as readonly never[];
  for (const p of ALL_PLUGINS) (p as { examples: readonly unknown[] }).examples = none;
}

function renderOnce(name: string, req: RenderRequest, sliceMs: number, hostNow: boolean): RenderResponse {
  let $: RenderState | null = null;
  try {
    const fn = templates.get(name);
    // The host reads this code as "the define queued before this render failed".
    if (!fn) throw Object.assign(new Error(`template not loaded: ${name}`), { code: 'E_TEMPLATE_NOT_LOADED' });
    const scope = buildScope(req);
    // Field by field: a spread of the request copied its every field, the vars included (D305).
    $ = new RenderState(scope, {
      templateName: req.templateName,
      now: req.now,
      site: req.site,
      validate: req.validate,
      request: valuesOf(req.request),
      constants: valuesOf(req.constants),
      maxIncludeDepth: req.maxIncludeDepth,
      seed: req.seed,
      maxOutputChars: req.maxOutputChars,
    });
    if (sliceMs > 0) $.startDeadline(sliceMs);
    const previous = setCurrent($);
    rendering = true;
    useHostNow(hostNow ? $ : null);
    try {
      const output = fn(scope, $);
      // Cut at its deadline, and something caught that (RenderState.tick): nothing of it is kept.
      if ($.cut) return { overSlice: true };
      // Output outside any loop is measured once, here (loops check as they go).
      if (output.length > $.maxOutput) $.outputLimit(output.length);
      // Measured at {return} already; again here because an object it holds may have changed since.
      checkReturnSize($.returnValue, $.maxOutput);
      // What is empty stays out: each array is a structured clone out of the isolate and back in
      // on the host (~1.3 µs of an empty render for the four, D273). The host reads absence as empty.
      const response: RenderResponse = { output };
      if ($.warnings.length > 0) {
        response.warnings = $.warnings;
        response.warningsAt = $.warningsAt;
      }
      if ($.logs.length > 0) {
        response.logs = $.logs;
        response.logsAt = $.logsAt;
      }
      return $.returnValue === null && req.returnJson !== true
        ? response
        : Object.assign(response, returned(toJSShared($.returnValue), req.returnJson === true));
    } finally {
      rendering = false;
      setCurrent(previous);
      useHostNow(null);
    }
  } catch (e) {
    if ($?.cut) return { overSlice: true };
    const code = codeOf(e);
    return fail(code, messageOf(e, code), e instanceof Error ? String(e.stack ?? '') : '', req);
  }
}

/** The request's `request` or `constants` data as PHP values, each converted now. */
function valuesOf(data: Record<string, unknown> | undefined): Record<string, Value> {
  const out: Record<string, Value> = {};
  if (data !== undefined) for (const k of Object.keys(data)) out[k] = fromJS(data[k]);
  return out;
}

/**
 * The value of {return}: as JSON text when asked, which copies out of the isolate as one string
 * where the value would be a structured clone of every array in it, and spares the host a walk
 * of its own (~60 µs of a `news` answer of 7 KB). A value JSON cannot write (a bigint) goes as data.
 */
function returned(value: unknown, asJson: boolean): Pick<RenderResponse, 'returnValue' | 'returnJson'> {
  if (!asJson) return { returnValue: value };
  try {
    return { returnJson: JSON.stringify(value) };
  } catch {
    return { returnValue: value };
  }
}

function fail(code: string, message: string, stack: string, req: RenderRequest): RenderResponse {
  const cap = req.maxErrorChars;
  // An error thrown deep in a plugin (a recursion, a size V8 refused) has only runtime frames
  // in its ten-frame stack: the host then takes the line from the position slot, which every
  // statement that calls a plugin or modifier sets first.
  const at = rt.where()[0];
  return {
    error: {
      code,
      message: message.length > cap ? `${message.slice(0, cap)}... (truncated)` : message,
      stack: stack.slice(0, 8 * cap),
      ...(at > 0 ? { at } : {}),
    },
  };
}

/** V8's own limit errors say what V8 refused, not that a limit of the render was reached. */
function messageOf(e: unknown, code: string): string {
  if (!(e instanceof Error)) return 'a non-error value was thrown';
  if (!(e instanceof RangeError) || (e as { code?: unknown }).code !== undefined) return e.message;
  if (code === 'E_RECURSION_LIMIT') return `the render recursed too deeply (${e.message})`;
  if (code === 'E_SIZE_LIMIT') return `a value grew past the size the sandbox allows (${e.message})`;
  return e.message;
}

/** Our errors carry a code; V8's own range errors are limits too. */
function codeOf(e: unknown): string {
  if (!(e instanceof Error)) return 'E_RUNTIME';
  const code = (e as { code?: unknown }).code;
  if (typeof code === 'string' && /^E_[A-Z_]+$/.test(code)) return code;
  const byClass: Record<string, string> = {
    PhpTypeError: 'E_TYPE',
    PhpDivisionByZero: 'E_DIVISION_BY_ZERO',
  };
  if (byClass[e.constructor.name]) return byClass[e.constructor.name];
  if (e instanceof RangeError) {
    if (/call stack/i.test(e.message)) return 'E_RECURSION_LIMIT';
    if (/Invalid (string|array|typed array|array buffer) length|allocation failed/i.test(e.message))
      return 'E_SIZE_LIMIT';
  }
  return 'E_RUNTIME';
}

function buildScope(req: RenderRequest): Scope {
  const scope = newScope();
  // The platform's predefined $dataSet.emptyArray (an empty array to start from).
  scope.dataSet = fromJS({ emptyArray: [] });
  readVars(req.vars, scope);
  return scope;
}

(globalThis as unknown as { smartcage: typeof smartcage }).smartcage = smartcage;
