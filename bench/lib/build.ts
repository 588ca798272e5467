/** Bundles src/index.ts and the sandbox worker entry into bench/.build/ (what the benchmark loads). */
import { buildSync } from 'esbuild';
import { fileURLToPath } from 'node:url';

export function buildSmartcage(): void {
  const root = fileURLToPath(new URL('../..', import.meta.url));
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
