/**
 * isolated-vm needs --no-node-snapshot in the process that holds isolates. With workers: 0 that is
 * the embedding process: createEngine says so at once, as a TemplateError naming the flag. The
 * default worker processes start with the flag themselves, so an embedder without it still renders.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ENGINE = fileURLToPath(new URL('../../src/engine.ts', import.meta.url));

function run(script: string): { status: number | null; out: string } {
  const r = spawnSync(
    process.execPath,
    ['--import', 'tsx', '-e', `import(${JSON.stringify(ENGINE)}).then(${script})`],
    {
      encoding: 'utf8',
      env: { ...process.env, NODE_OPTIONS: '' },
      timeout: 60_000,
    },
  );
  return { status: r.status, out: r.stdout + r.stderr };
}

describe('an embedding process started without --no-node-snapshot', () => {
  it('workers: 0 is refused when the engine is made, with a TemplateError naming the flag', () => {
    const r = run(
      `(m) => { try { m.createEngine({ workers: 0 }); console.log('made'); } catch (e) { console.log(e.name, e.code, e.message); } }`,
    );
    expect(r.out).toContain('TemplateError E_SANDBOX_SETUP');
    expect(r.out).toContain('--no-node-snapshot');
    expect(r.out).not.toContain('made');
  });

  it('the default worker processes still render', () => {
    const r = run(
      `async (m) => { const e = m.createEngine(); try { console.log((await e.render('{$x|upper}', { vars: { x: 'ok' } })).output); } finally { e.close(); } }`,
    );
    expect(r.out).toContain('OK');
    expect(r.status).toBe(0);
  });
});
