/** The globals of Node 24 that the project's code and tests use (ESLint's `no-undef`). */
export default Object.fromEntries(
  [
    'console', 'process', 'URL', 'URLSearchParams', 'Buffer', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval',
    'setImmediate', 'clearImmediate', 'queueMicrotask', 'performance', 'TextEncoder', 'TextDecoder', 'structuredClone',
    'AbortController', 'AbortSignal', 'fetch', 'Response', 'Request', 'Headers', 'globalThis', 'WebAssembly', 'crypto', 'Blob',
  ].map((name) => [name, 'readonly']),
);
