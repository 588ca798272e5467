/** Runs the CLI as a user would, in a child process (from the TypeScript sources). */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface CliResult {
  status: number;
  stdout: string;
  stderr: string;
}

export function runCli(args: string[], opts: { cwd?: string } = {}): CliResult {
  const r = spawnSync(
    process.execPath,
    [
      '--no-node-snapshot',
      '--import',
      'tsx',
      '-e',
      `import(${JSON.stringify(ROOT + 'src/cli/main.ts')}).then(async (m) => { process.exitCode = await m.main(${JSON.stringify(args)}); })`,
    ],
    { cwd: opts.cwd ?? ROOT, encoding: 'utf8' },
  );
  return { status: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}
