/** Runs the CLI as a user would, in a child process (from the TypeScript sources). */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface CliResult {
  status: number;
  stdout: string;
  stderr: string;
}

/** The Node arguments that run `smartcage ARGS` from the TypeScript sources (no build needed). */
export function sourceCliArgs(args: string[]): string[] {
  return [
    '--no-node-snapshot',
    '--import',
    'tsx',
    '-e',
    `import(${JSON.stringify(ROOT + 'src/cli/main.ts')}).then(async (m) => { process.exitCode = await m.main(${JSON.stringify(args)}); })`,
  ];
}

export function runCli(args: string[], opts: { cwd?: string } = {}): CliResult {
  const r = spawnSync(process.execPath, sourceCliArgs(args), { cwd: opts.cwd ?? ROOT, encoding: 'utf8' });
  return { status: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}
