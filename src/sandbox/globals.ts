/**
 * The global object of a render context, exactly (docs/security.md IS-02, G15): the
 * ECMAScript built-ins V8 provides, minus WebAssembly, SharedArrayBuffer, Atomics and eval
 * (removed at bootstrap), plus `smartcage`. Anything else is a finding. Node 24's V8 added
 * AsyncDisposableStack, DisposableStack, Float16Array, Iterator and SuppressedError; the lockdown
 * hardens them like every other global (src/runtime/lockdown.ts reads the global object itself).
 * In a sandbox worker, started with --expose-gc, V8 also puts a non-configurable `gc` there: the
 * runtime takes it at bootstrap and leaves the name holding undefined, read-only (`GC_GLOBAL`).
 */
export const ALLOWED_GLOBALS: readonly string[] = [
  'AggregateError', 'Array', 'ArrayBuffer', 'AsyncDisposableStack', 'BigInt', 'BigInt64Array', 'BigUint64Array', 'Boolean', 'DataView',
  'Date', 'DisposableStack', 'Error', 'EvalError', 'FinalizationRegistry', 'Float16Array', 'Float32Array', 'Float64Array', 'Function', 'Infinity',
  'Int16Array', 'Int32Array', 'Int8Array', 'Intl', 'Iterator', 'JSON', 'Map', 'Math', 'NaN', 'Number', 'Object', 'Promise',
  'Proxy', 'RangeError', 'ReferenceError', 'Reflect', 'RegExp', 'Set', 'String', 'SuppressedError', 'Symbol', 'SyntaxError',
  'TypeError', 'URIError', 'Uint16Array', 'Uint32Array', 'Uint8Array', 'Uint8ClampedArray', 'WeakMap', 'WeakRef',
  'WeakSet', 'console', 'decodeURI', 'decodeURIComponent', 'encodeURI', 'encodeURIComponent', 'escape',
  'globalThis', 'isFinite', 'isNaN', 'parseFloat', 'parseInt', 'smartcage', 'undefined', 'unescape',
];

/** The one name a worker's global may hold beyond the list, as long as it holds nothing: see above. */
export const GC_GLOBAL = 'gc';
