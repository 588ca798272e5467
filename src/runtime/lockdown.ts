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
 * that changed them gets its context replaced (src/sandbox/isolate-host.ts). The comparison is
 * by identity, field by field (a string of the whole shape cost 13 µs per render).
 */
interface Shape {
  target: object;
  extensible: boolean;
  proto: object | null;
  keys: (string | symbol)[];
  descriptors: PropertyDescriptor[];
}

let regexpBaseline: Shape[] | null = null;

function shapeOf(target: object): Shape {
  const keys = Reflect.ownKeys(target);
  return {
    target,
    extensible: Object.isExtensible(target),
    proto: Object.getPrototypeOf(target) as object | null,
    keys,
    descriptors: keys.map((k) => Object.getOwnPropertyDescriptor(target, k)!),
  };
}

function unchanged(s: Shape): boolean {
  if (Object.isExtensible(s.target) !== s.extensible || Object.getPrototypeOf(s.target) !== s.proto) return false;
  const keys = Reflect.ownKeys(s.target);
  if (keys.length !== s.keys.length) return false;
  for (let i = 0; i < keys.length; i++) {
    if (keys[i] !== s.keys[i]) return false;
    const d = Object.getOwnPropertyDescriptor(s.target, keys[i]!)!;
    const b = s.descriptors[i]!;
    // RegExp's legacy statics ($1...) are accessors, so no value churns from render to render.
    if (d.configurable !== b.configurable || d.enumerable !== b.enumerable || d.writable !== b.writable) return false;
    if (!Object.is(d.value, b.value) || d.get !== b.get || d.set !== b.set) return false;
  }
  return true;
}

/** True while RegExp and its prototype are exactly as bootstrap left them. */
export function regexpIntact(): boolean {
  return regexpBaseline === null || regexpBaseline.every(unchanged);
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
  regexpBaseline = [shapeOf(RegExp), shapeOf(RegExp.prototype)];
}
