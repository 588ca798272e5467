/**
 * Another project depends on smartcage as the README says: the file `npm pack` makes from the
 * built checkout, installed with npm into an empty project, then `npx smartcage` and
 * `import 'smartcage'` from that project. The README's commands name the same file. npm may use
 * the network for the dependencies not in its cache (`--prefer-offline`).
 */
import { spawnSync, type SpawnSyncOptions } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, requireBuild } from '../support/bin.js';

const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
const TARBALL = `smartcage-${version}.tgz`;
const dir = mkdtempSync(join(tmpdir(), 'smartcage-consumer-'));
const project = join(dir, 'project');
// npm and npx run on the Node that runs the tests (24), as they would in a project on Node 24.
const env = { ...process.env, PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}`, NODE_OPTIONS: '' };

function run(command: string, args: string[], cwd: string): { status: number | null; stdout: string; stderr: string } {
  const opts: SpawnSyncOptions = { cwd, env, encoding: 'utf8', timeout: 240_000 };
  const r = spawnSync(command, args, opts);
  return { status: r.status, stdout: String(r.stdout), stderr: String(r.stderr) };
}

let installed: { status: number | null; stderr: string };
beforeAll(() => {
  requireBuild();
  const packed = run('npm', ['pack', '--silent', '--pack-destination', dir], ROOT);
  expect(packed.stdout.trim(), packed.stderr).toBe(TARBALL);
  run('mkdir', [project], dir);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  writeFileSync(join(project, 'page.tpl'), '{$greeting|default:"hello from npx"}\n');
  writeFileSync(
    join(project, 'app.mjs'),
    "import { createEngine } from 'smartcage';\nconst e = createEngine();\ntry { console.log((await e.render('{$x|upper}', { vars: { x: 'imported' } })).output); } finally { e.close(); }\n",
  );
  installed = run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', join(dir, TARBALL)], project);
}, 300_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a project that depends on the packed smartcage', () => {
  it('installs it', () => {
    expect(installed.status, installed.stderr).toBe(0);
    const pkg = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    expect(pkg.dependencies.smartcage).toMatch(new RegExp(`^file:.*${TARBALL.replace(/\./g, '\\.')}$`));
  });

  it('runs the command with npx', () => {
    const r = run('npx', ['smartcage', 'render', 'page.tpl'], project);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('hello from npx');
  });

  it("imports 'smartcage' and renders", () => {
    const r = run(process.execPath, ['app.mjs'], project);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('IMPORTED\n');
  });

  it("is what the README's commands install", () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    for (const command of [
      'npm run build && npm pack',
      `npm install ../smartcage/${TARBALL}`,
      'npx smartcage render page.tpl',
    ])
      expect(readme).toContain(command);
  });
});
