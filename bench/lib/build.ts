/**
 * Bundles src/index.ts and the sandbox worker entry into `<root>/bench/.build/` (what the
 * benchmark loads); `root` is this checkout, or another revision's copy (bench/workers.ts).
 */
import { buildSync } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export function buildSmartcage(root = ROOT): void {
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

/**
 * Git revision `rev` of this checkout bundled as shipped (its src/ and runtime bundle, from `git
 * archive`, in `<scratch>/rev<index>`; `.` is the working tree as it is): the path of its
 * `bench/.build/index.js`, beside its worker entry.
 */
export function buildRevision(rev: string, scratch: string, index: number): string {
  let dir = ROOT;
  if (rev !== '.') {
    dir = join(scratch, `rev${index}`);
    mkdirSync(dir);
    const tar = execFileSync('git', ['archive', rev, 'src', 'scripts', 'package.json'], {
      cwd: ROOT,
      maxBuffer: 1 << 30,
    });
    execFileSync('tar', ['-x', '-C', dir], { input: tar });
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
    // This checkout's native build (the slice's watchdog, D373), so that an A/B of two revisions'
    // JavaScript measures both with the same bound; a checkout without one leaves it out.
    if (existsSync(join(ROOT, 'dist/native'))) {
      mkdirSync(join(dir, 'dist'));
      symlinkSync(join(ROOT, 'dist/native'), join(dir, 'dist/native'));
    }
  }
  execFileSync(process.execPath, ['scripts/build-runtime.mjs'], { cwd: dir, stdio: 'inherit' });
  buildSmartcage(dir);
  return join(dir, 'bench/.build/index.js');
}
