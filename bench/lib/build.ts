/**
 * Bundles src/index.ts and the sandbox worker entry into `<root>/bench/.build/` (what the
 * benchmark loads); `root` is this checkout, or another revision's copy (bench/workers.ts).
 */
import { buildSync } from 'esbuild';
import { fileURLToPath } from 'node:url';

export function buildSmartcage(root = fileURLToPath(new URL('../..', import.meta.url))): void {
  buildSync({
    absWorkingDir: root,
    entryPoints: { index: 'src/index.ts', 'worker-main': 'src/sandbox/worker-main.ts' },
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    outdir: 'bench/.build',
    logLevel: 'warning',
  });
}
