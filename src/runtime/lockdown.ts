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

export function lockdown(extra: unknown[]): void {
  const g = globalThis as Record<string, unknown>;
  const seen = new Set<unknown>();
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
}
