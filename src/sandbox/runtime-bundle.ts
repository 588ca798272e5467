/** The runtime script evaluated in every isolate (built by scripts/build-runtime.mjs). */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const CANDIDATES = [
  '../../dist/runtime.bundle.js', // running from src/ (tests, tsx)
  '../../runtime.bundle.js', // running from dist/src/
];

let cached: string | null = null;

export function runtimeBundle(): string {
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
