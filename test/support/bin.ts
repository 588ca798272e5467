/** Runs the built command, bin/smartcage.js, as a user would (after `npm run build`; CI builds before testing). */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const BIN = join(ROOT, 'bin/smartcage.js');

/** Fails the calling test file clearly when dist/ was not built, rather than skipping it. */
export function requireBuild(): void {
  if (!existsSync(join(ROOT, 'dist/src/cli/main.js')))
    throw new Error('dist/ is missing: run `npm run build` before these tests');
}

export function runBin(
  args: string[],
  opts: { cwd?: string; input?: string } = {},
): { status: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd: opts.cwd ?? ROOT,
    encoding: 'utf8',
    input: opts.input ?? '',
  });
  return { status: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** Runs an example of examples/ as a user runs it (`node examples/x.mjs`, the built package imported by name). */
export function runExample(file: string): { status: number; stdout: string; stderr: string } {
  requireBuild();
  const r = spawnSync(process.execPath, [join(ROOT, file)], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
  return { status: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}
