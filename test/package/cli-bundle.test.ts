/**
 * The CLI bundle (scripts/build-cli.mjs, dist/cli/, D163): every command loads from it, and no
 * source imports a bundled package dynamically (a split bundle hands such an import a namespace
 * without the CommonJS package's named exports, as happened to prom-client).
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { ROOT, requireBuild } from '../support/bin.js';

beforeAll(() => requireBuild());

const COMMANDS = ['render', 'check', 'compile', 'serve', 'form', 'plugins', 'lsp', 'site', 'batch'];

it('loads every command from dist/cli/main.js', () => {
  const probe = `const m = await import(${JSON.stringify(join(ROOT, 'dist/cli/main.js'))});
const names = ${JSON.stringify(COMMANDS)};
const got = [];
for (const n of names) { const c = await m.loadCommand(n); got.push(c.name + ':' + typeof c.run); }
process.stdout.write(JSON.stringify(got));`;
  const r = spawnSync(process.execPath, ['--no-node-snapshot', '--input-type=module', '-e', probe], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  expect(r.stderr).toBe('');
  expect(JSON.parse(r.stdout)).toEqual(COMMANDS.map((n) => `${n}:function`));
});

it('no source imports a bundled package dynamically', () => {
  const script = readFileSync(join(ROOT, 'scripts/build-cli.mjs'), 'utf8');
  const bundled = JSON.parse(/const BUNDLED = (\[[^\]]*\])/.exec(script)![1]!.replaceAll("'", '"')) as string[];
  expect(bundled).toContain('undici');
  const found: string[] = [];
  for (const f of readdirSync(join(ROOT, 'src'), { recursive: true, encoding: 'utf8' })) {
    if (!f.endsWith('.ts')) continue;
    const text = readFileSync(join(ROOT, 'src', f), 'utf8');
    for (const m of text.matchAll(/import\(\s*'([^'.][^']*)'\s*\)/g))
      if (bundled.includes(m[1]!.split('/')[0]!)) found.push(`src/${f}: import('${m[1]}')`);
  }
  expect(found).toEqual([]);
});
