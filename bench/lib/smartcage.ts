/**
 * The smartcage the benchmark measures. By default the engine as shipped: src/ bundled by
 * esbuild into bench/.build/ (plain JavaScript, as `npm run build` gives; run.ts builds it),
 * with its sandbox worker entry beside it. `npm run bench -- --src` measures src/ through tsx
 * instead, whose keepNames helper (`__name`) costs the compiler about 2x (see README).
 */
import type * as Smartcage from '../../src/index.js';

export type SmartcageModule = typeof Smartcage;

let loaded: Promise<SmartcageModule> | null = null;

export function loadSmartcage(): Promise<SmartcageModule> {
  loaded ??= process.env.BENCH_SRC
    ? import('../../src/index.js')
    : (import(new URL('../.build/index.js', import.meta.url).href) as Promise<SmartcageModule>);
  return loaded;
}
