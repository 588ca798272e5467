/**
 * Makes a render context safe to reuse for the next render of the same tenant: every built-in
 * constructor and prototype, the runtime's own classes and objects, and the global object are
 * frozen (the SES "lockdown" idea). Template code cannot write globals anyway; this makes the
 * same hold for hand-written JavaScript that got past the compiler ("assume breach"): it can
 * neither pollute a prototype nor leave a global behind for a later render.
 */
/**
 * Every global the context starts with is hardened, whatever the V8 version adds: the list is read
 * from the global object itself at bootstrap, not kept by hand. A fixed list left `decodeURI`,
 * `escape`, `isNaN`... and, on Node 24's V8, `Iterator`, `DisposableStack`, `AsyncDisposableStack`,
 * `SuppressedError` and `Float16Array` extensible, so a render could leave state on them for the
 * tenant's next render.
 */
function ownGlobals(): unknown[] {
  const out: unknown[] = [];
  for (const key of Reflect.ownKeys(globalThis)) {
    const d = Object.getOwnPropertyDescriptor(globalThis, key);
    if (!d) continue;
    if ('value' in d) out.push(d.value);
    else out.push(d.get, d.set);
  }
  return out;
}

/**
 * `Object.freeze` on Object.prototype or Array.prototype takes V8 off fast paths for the whole
 * isolate: with nothing else frozen, either one made the benchmark page ~20% slower (about 200 ->
 * 240 µs per render). Locking each property with `defineProperty` and then preventing extensions
 * leaves Object.prototype frozen all the same (`Object.isFrozen` is true) without that cost. On
 * Array.prototype, redefining `constructor` or `Symbol.iterator` in any way switches off V8's
 * array-species and array-iterator fast paths (`slice` 13x, spread 5x slower), so those two are
 * left as they are and watched instead (`builtinsIntact`), like RegExp.
 */
const WATCHED: readonly PropertyKey[] = ['constructor', Symbol.iterator];

/**
 * `Object.freeze` on any prototype of a typed array's chain (Int32Array.prototype,
 * %TypedArray%.prototype, Object.prototype) makes every typed array element read and write in the
 * isolate ~35x slower (1.1 -> 40 ns in V8 11.3): generated code records its position in an
 * Int32Array (`P[0] = 17`) at each plugin call, and the byte helpers work on Uint8Arrays. Locking
 * the properties one by one does not (the benchmark page: ~20 µs per render). As on
 * Array.prototype, `constructor` and `Symbol.iterator` are left as they are and watched: locked,
 * they switched off V8's typed array fast paths that `String.fromCharCode.apply` over a typed
 * array takes (the byte helpers' UTF-8 decoder, 400 bytes: ~7.9 against ~2.7 µs).
 */
const TypedArray = Object.getPrototypeOf(Int8Array) as object;
const TYPED_ARRAY_PROTOTYPES: ReadonlySet<object> = new Set([
  (TypedArray as { prototype: object }).prototype,
  // Every concrete typed array the context has (Float16Array arrived with Node 24's V8).
  ...ownGlobals()
    .filter((c): c is { prototype: object } => typeof c === 'function' && Object.getPrototypeOf(c) === TypedArray)
    .map((c) => c.prototype),
]);

function freeze(v: object): void {
  if (v === Object.prototype) lockProperties(v, []);
  else if (v === Array.prototype || TYPED_ARRAY_PROTOTYPES.has(v)) lockProperties(v, WATCHED);
  else Object.freeze(v);
}

function lockProperties(o: object, except: readonly PropertyKey[]): void {
  for (const key of Reflect.ownKeys(o)) {
    if (except.includes(key)) continue;
    const d = Object.getOwnPropertyDescriptor(o, key)!;
    Object.defineProperty(o, key, 'value' in d ? { writable: false, configurable: false } : { configurable: false });
  }
  Object.preventExtensions(o);
}

/** Freezes `root` and everything reachable from it through properties and prototypes. */
export function harden(root: unknown, seen = new Set<unknown>()): void {
  const stack = [root];
  while (stack.length) {
    const v = stack.pop();
    if ((typeof v !== 'object' && typeof v !== 'function') || v === null || seen.has(v)) continue;
    seen.add(v);
    freeze(v);
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
 * RegExp.prototype stays unfrozen: a frozen RegExp.prototype takes every regular expression in
 * the isolate off V8's fast path (5.7x slower, measured by the benchmark). Instead its
 * descriptors are recorded here and compared after every render (`builtinsIntact`), with the
 * watched properties of Array.prototype, the typed arrays' prototypes and RegExp; a render that
 * changed any of them gets its context replaced (src/sandbox/isolate-host.ts). The comparison is
 * by identity, field by field (a string of the whole shape cost 13 µs per render), and with index
 * loops only: a render may have replaced Array.prototype[Symbol.iterator] by the time it runs.
 *
 * RegExp itself is locked property by property but for `Symbol.species` (V8's species
 * protector), which is watched (`WATCHED_REGEXP`): its 24 own properties (the legacy statics
 * `$1`... are accessors) had been compared descriptor by descriptor after every render, ~20 µs of
 * an empty render's ~27 in the isolate, and locking them leaves the regular expressions' speed
 * as it was (docs/decisions.md D232).
 */
const WATCHED_REGEXP: readonly PropertyKey[] = [Symbol.species];

interface Shape {
  target: object;
  /** Null: only `keys` are compared (the object is non-extensible and its other properties locked). */
  extensible: boolean | null;
  proto: object | null;
  keys: readonly PropertyKey[];
  descriptors: (PropertyDescriptor | undefined)[];
}

let baseline: Shape[] | null = null;

function shapeOf(target: object, only?: readonly PropertyKey[]): Shape {
  // A watched key a non-extensible object lacks can never be added: not compared (the typed
  // arrays' own prototypes have no Symbol.iterator; D301).
  const keys = only
    ? only.filter((k) => Object.isExtensible(target) || Object.getOwnPropertyDescriptor(target, k) !== undefined)
    : Reflect.ownKeys(target);
  return {
    target,
    extensible: only ? null : Object.isExtensible(target),
    proto: Object.getPrototypeOf(target) as object | null,
    keys,
    descriptors: keys.map((k) => Object.getOwnPropertyDescriptor(target, k)),
  };
}

function sameDescriptor(d: PropertyDescriptor | undefined, b: PropertyDescriptor | undefined): boolean {
  if (!d || !b) return d === b;
  // No watched data property's value churns from render to render (RegExp's legacy statics are accessors).
  if (d.configurable !== b.configurable || d.enumerable !== b.enumerable || d.writable !== b.writable) return false;
  return Object.is(d.value, b.value) && d.get === b.get && d.set === b.set;
}

function unchanged(s: Shape): boolean {
  if (Object.getPrototypeOf(s.target) !== s.proto) return false;
  if (s.extensible !== null) {
    if (Object.isExtensible(s.target) !== s.extensible) return false;
    const keys = Reflect.ownKeys(s.target);
    if (keys.length !== s.keys.length) return false;
    for (let i = 0; i < keys.length; i++) if (keys[i] !== s.keys[i]) return false;
  }
  for (let i = 0; i < s.keys.length; i++) {
    if (!sameDescriptor(Object.getOwnPropertyDescriptor(s.target, s.keys[i]!), s.descriptors[i])) return false;
  }
  return true;
}

/** True while RegExp.prototype and the watched properties of RegExp, Array.prototype and the typed arrays' prototypes are exactly as bootstrap left them. */
export function builtinsIntact(): boolean {
  if (baseline === null) return true;
  for (let i = 0; i < baseline.length; i++) if (!unchanged(baseline[i]!)) return false;
  return true;
}

export function lockdown(extra: unknown[]): void {
  const seen = new Set<unknown>([RegExp, RegExp.prototype]);
  for (const v of ownGlobals()) harden(v, seen);
  // Intrinsics with no global name.
  harden(
    Object.getPrototypeOf(function* () {}),
    seen,
  );
  harden(
    Object.getPrototypeOf(async function () {}),
    seen,
  );
  harden(
    Object.getPrototypeOf(async function* () {}),
    seen,
  );
  // The iterators' prototypes (each leads to %IteratorPrototype%). Object.freeze keeps V8's
  // array-iterator fast path here, where locking property by property would lose it.
  harden(Object.getPrototypeOf([][Symbol.iterator]()), seen);
  harden(Object.getPrototypeOf(new Map().entries()), seen);
  harden(Object.getPrototypeOf(new Set().values()), seen);
  harden(Object.getPrototypeOf(''[Symbol.iterator]()), seen);
  harden(Object.getPrototypeOf(''.matchAll(/(?:)/g)), seen);
  harden(TypedArray, seen);
  for (const x of extra) harden(x, seen);
  // The global object and its prototype chain (its own prototype is not Object.prototype).
  harden(globalThis, seen);
  lockProperties(RegExp, WATCHED_REGEXP);
  baseline = [
    shapeOf(RegExp, WATCHED_REGEXP),
    shapeOf(RegExp.prototype),
    ...[Array.prototype, ...TYPED_ARRAY_PROTOTYPES].map((p) => shapeOf(p, WATCHED)),
  ];
}
