/** The runtime script evaluated in every isolate (built by scripts/build-runtime.mjs). */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type ivm from 'isolated-vm';

const CANDIDATES = [
  '../../dist/runtime.bundle.js', // running from src/ (tests, tsx)
  '../../runtime.bundle.js', // running from dist/src/
];

let cached: string | null = null;

function runtimeBundle(): string {
  if (cached) return cached;
  for (const rel of CANDIDATES) {
    const path = fileURLToPath(new URL(rel, import.meta.url));
    if (existsSync(path)) {
      cached = readFileSync(path, 'utf8');
      return cached;
    }
  }
  throw new Error('smartcage: dist/runtime.bundle.js is missing; run `npm run build`');
}

/** isolated-vm sets these on the script (its typings name them only on the async variants). */
type CachingScript = ivm.Script & { cachedData?: ivm.ExternalCopy<ArrayBuffer>; cachedDataRejected?: boolean };

/** V8's code cache for the runtime, made by the first isolate of this process. */
let codeCache: ivm.ExternalCopy<ArrayBuffer> | undefined;

/**
 * The runtime compiled in `isolate`. Compiling its ~410 KB of JavaScript (minified, the plugins'
 * examples left out: scripts/build-runtime.mjs) costs a new tenant about 11 ms; from V8's code
 * cache of the first compile it costs about 1 ms.
 */
export function compileRuntime(isolate: ivm.Isolate): ivm.Script {
  const filename = 'smartcage-runtime.js';
  if (codeCache) {
    const script: CachingScript = isolate.compileScriptSync(runtimeBundle(), { filename, cachedData: codeCache });
    if (!script.cachedDataRejected) return script;
  }
  const script: CachingScript = isolate.compileScriptSync(runtimeBundle(), { filename, produceCachedData: true });
  codeCache = script.cachedData;
  return script;
}
