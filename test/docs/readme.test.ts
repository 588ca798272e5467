/**
 * What the README says of setting up an embedding process is what the code does: the message
 * createEngine({ workers: 0 }) throws without --no-node-snapshot is the one it quotes.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ENGINE = fileURLToPath(new URL('../../src/engine.ts', import.meta.url));
const oneLine = (s: string) => s.replace(/\s+/g, ' ');

describe('README.md', () => {
  it('quotes the TemplateError of workers: 0 in a process started without --no-node-snapshot', () => {
    const script = `import(${JSON.stringify(ENGINE)}).then((m) => { try { m.createEngine({ workers: 0 }); } catch (e) { console.log(JSON.stringify({ name: e.name, code: e.code, message: e.message })); } })`;
    const r = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], {
      encoding: 'utf8',
      env: { ...process.env, NODE_OPTIONS: '' },
      timeout: 60_000,
    });
    const thrown = JSON.parse(r.stdout) as { name: string; code: string; message: string };
    expect(thrown).toMatchObject({ name: 'TemplateError', code: 'E_SANDBOX_SETUP' });
    expect(oneLine(readFileSync('README.md', 'utf8'))).toContain(
      `\`E_SANDBOX_SETUP\` and the message "${thrown.message}"`,
    );
  });
});
