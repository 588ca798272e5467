import { execFileSync } from 'node:child_process';

// The sandbox loads the runtime as one bundled script; build it once before the tests.
export default function setup(): void {
  execFileSync(process.execPath, ['scripts/build-runtime.mjs'], { stdio: 'inherit' });
}
