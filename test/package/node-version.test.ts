/**
 * The package on a Node older than 24 (src/node-version.ts, D143): importing an entry fails at
 * once with one line saying how to get Node 24, not with isolated-vm's "No native build was
 * found". Run with the system's `node` when it is older than 24 (Debian's is 20); skipped, and
 * said so, where the system has none.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT, requireBuild } from '../support/bin.js';

const SYSTEM_NODE = '/usr/bin/node';
const version = spawnSync(SYSTEM_NODE, ['--version'], { encoding: 'utf8' });
const major = version.status === 0 ? Number(/^v(\d+)/.exec(version.stdout)?.[1]) : NaN;
const old = major < 24;

describe.skipIf(!old)(`the package on the system's Node (${version.stdout?.trim() || 'none'})`, () => {
  beforeAll(requireBuild);

  for (const entry of ['dist/src/index.js', 'dist/src/security/entry.js']) {
    it(`import of ${entry} fails with one line: which Node, and how to get 24`, () => {
      const script = `try { await import(${JSON.stringify(join(ROOT, entry))}); console.log('loaded'); } catch (e) { console.log(e.code); console.log(e.stack); }`;
      const r = spawnSync(SYSTEM_NODE, ['--input-type=module', '-e', script], { encoding: 'utf8' });
      const [code, ...rest] = r.stdout.trimEnd().split('\n');
      expect(code).toBe('ERR_SMARTCAGE_NODE_VERSION');
      expect(rest).toHaveLength(1);
      expect(rest[0]).toMatch(
        /^Error: smartcage needs Node 24 or later, and this is Node \d+\.\d+\.\d+: install Node 24 \(https:\/\/nodejs\.org, `nvm install 24`/,
      );
      expect(r.stdout + r.stderr).not.toMatch(/native build|isolated-vm/i);
    });
  }

  it('smartcage/forms, which needs no isolate, still loads', () => {
    const r = spawnSync(
      SYSTEM_NODE,
      [
        '--input-type=module',
        '-e',
        `const m = await import(${JSON.stringify(join(ROOT, 'dist/src/forms/entry.js'))}); console.log(typeof m.createValidator);`,
      ],
      { encoding: 'utf8' },
    );
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('function\n');
  });
});
