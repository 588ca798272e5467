/**
 * The global object of a render context, exactly (../shared/docs/security.md IS-02, G15): the
 * ECMAScript built-ins V8 provides, minus WebAssembly, SharedArrayBuffer, Atomics and eval
 * (removed at bootstrap), plus `smartcage`. Anything else is a finding.
 */
export const ALLOWED_GLOBALS: readonly string[] = [
  'AggregateError', 'Array', 'ArrayBuffer', 'BigInt', 'BigInt64Array', 'BigUint64Array', 'Boolean', 'DataView',
  'Date', 'Error', 'EvalError', 'FinalizationRegistry', 'Float32Array', 'Float64Array', 'Function', 'Infinity',
  'Int16Array', 'Int32Array', 'Int8Array', 'Intl', 'JSON', 'Map', 'Math', 'NaN', 'Number', 'Object', 'Promise',
  'Proxy', 'RangeError', 'ReferenceError', 'Reflect', 'RegExp', 'Set', 'String', 'Symbol', 'SyntaxError',
  'TypeError', 'URIError', 'Uint16Array', 'Uint32Array', 'Uint8Array', 'Uint8ClampedArray', 'WeakMap', 'WeakRef',
  'WeakSet', 'console', 'decodeURI', 'decodeURIComponent', 'encodeURI', 'encodeURIComponent', 'escape',
  'globalThis', 'isFinite', 'isNaN', 'parseFloat', 'parseInt', 'smartcage', 'undefined', 'unescape',
];
