/**
 * Makes a render context safe to reuse for the next render of the same tenant: every built-in
 * constructor and prototype, the runtime's own classes and objects, and the global object are
 * frozen (the SES "lockdown" idea). Template code cannot write globals anyway; this makes the
 * same hold for hand-written JavaScript that got past the compiler ("assume breach"): it can
 * neither pollute a prototype nor leave a global behind for a later render.
 */
const INTRINSICS = [
  'Object', 'Function', 'Array', 'String', 'Number', 'Boolean', 'Symbol', 'BigInt', 'Date', 'RegExp', 'Error',
  'AggregateError', 'EvalError', 'RangeError', 'ReferenceError', 'SyntaxError', 'TypeError', 'URIError', 'Map', 'Set',
  'WeakMap', 'WeakSet', 'WeakRef', 'FinalizationRegistry', 'Promise', 'Proxy', 'Reflect', 'JSON', 'Math', 'Intl',
  'ArrayBuffer', 'DataView', 'Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array', 'Uint16Array', 'Int32Array',
  'Uint32Array', 'Float32Array', 'Float64Array', 'BigInt64Array', 'BigUint64Array', 'console',
];

/** Freezes `root` and everything reachable from it through properties and prototypes. */
export function harden(root: unknown, seen = new Set<unknown>()): void {
  const stack = [root];
  while (stack.length) {
    const v = stack.pop();
    if ((typeof v !== 'object' && typeof v !== 'function') || v === null || seen.has(v)) continue;
    seen.add(v);
    Object.freeze(v);
    stack.push(Object.getPrototypeOf(v));
    for (const key of Reflect.ownKeys(v)) {
      const d = Object.getOwnPropertyDescriptor(v, key);
      if (!d) continue;
      if ('value' in d) stack.push(d.value);
      else stack.push(d.get, d.set);
    }
  }
}

/**
 * RegExp and RegExp.prototype stay unfrozen: a frozen RegExp.prototype takes every regular
 * expression in the isolate off V8's fast path (5.7x slower, measured by the benchmark). Instead
 * their descriptors are recorded here and compared after every render (`regexpIntact`); a render
 * that changed them gets its context replaced (src/sandbox/isolate-host.ts).
 */
let regexpBaseline: string | null = null;

function regexpShape(): string {
  const parts: string[] = [];
  for (const target of [RegExp, RegExp.prototype] as object[]) {
    parts.push(String(Object.isExtensible(target)), String(Object.getPrototypeOf(target) === Function.prototype || Object.getPrototypeOf(target) === Object.prototype));
    for (const key of Reflect.ownKeys(target)) {
      const d = Object.getOwnPropertyDescriptor(target, key)!;
      parts.push(String(key), String(d.configurable), String(d.enumerable), String(d.writable), identity(d.value), identity(d.get), identity(d.set));
    }
  }
  return parts.join('|');
}

const ids = new WeakMap<object, number>();
let nextId = 1;
/** Functions and objects compare by identity; RegExp's legacy statics ($1...) are accessors, so values do not churn. */
function identity(v: unknown): string {
  if ((typeof v !== 'object' && typeof v !== 'function') || v === null) return typeof v === 'string' ? JSON.stringify(v) : String(v);
  let id = ids.get(v);
  if (id === undefined) {
    id = nextId++;
    ids.set(v, id);
  }
  return `#${id}`;
}

/** True while RegExp and its prototype are exactly as bootstrap left them. */
export function regexpIntact(): boolean {
  return regexpBaseline === null || regexpShape() === regexpBaseline;
}

export function lockdown(extra: unknown[]): void {
  const g = globalThis as Record<string, unknown>;
  const seen = new Set<unknown>([RegExp, RegExp.prototype]);
  for (const name of INTRINSICS) harden(g[name], seen);
  // Intrinsics with no global name.
  harden(Object.getPrototypeOf(function* () {}), seen);
  harden(Object.getPrototypeOf(async function () {}), seen);
  harden(Object.getPrototypeOf(async function* () {}), seen);
  harden(Object.getPrototypeOf(Object.getPrototypeOf([][Symbol.iterator]())), seen);
  harden(Object.getPrototypeOf(new Map().entries()), seen);
  harden(Object.getPrototypeOf(new Set().values()), seen);
  harden(Object.getPrototypeOf(''[Symbol.iterator]()), seen);
  harden(Object.getPrototypeOf(Int8Array), seen);
  for (const x of extra) harden(x, seen);
  Object.freeze(globalThis);
  regexpBaseline = regexpShape();
}
