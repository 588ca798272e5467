/**
 * A worker gets a template's code once (src/sandbox/worker-protocol.ts `WireTemplate`): later renders
 * name it by key. What must hold: the code goes once per worker and template object, a changed
 * template goes again, a worker told to forget (past 500 templates) gets the code again, and a
 * worker that replaced a dead one gets it again too.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { ChildProcess } from 'node:child_process';
import { SandboxPool } from '../../src/sandbox/pool.js';
import { compile } from '../../src/compiler/index.js';
import { renderRequest } from '../../src/sandbox/request.js';
import { DEFAULT_LIMITS } from '../../src/sandbox/limits.js';
import type { CompiledTemplate } from '../../src/protocol/render.js';
import type { ToWorker } from '../../src/sandbox/worker-protocol.js';

const pool = new SandboxPool({ workers: 1 });
afterAll(() => pool.close());

/** Messages to the worker, recorded where the pool sends them (its one shared worker). */
const sent: ToWorker[] = [];
type PoolWorker = { proc: ChildProcess; send(m: ToWorker): void };
const worker = () => (pool as unknown as { shared: PoolWorker[] }).shared[0]!;
const workerProc = () => worker().proc;
const spy = (w: PoolWorker) => {
  const send = w.send.bind(w);
  w.send = (m: ToWorker) => {
    sent.push(m);
    send(m);
  };
};
spy(worker());

const template = (source: string, id: string): CompiledTemplate => ({
  id,
  code: compile(source, { name: id, id }).code,
  filename: `${id}.js`,
});
const render = async (t: CompiledTemplate, x = 'v') => {
  const request = renderRequest({
    templateName: t.id,
    now: 1700000000,
    site: { timezone: 'UTC', lang: 'en', rootUrl: 'http://localhost' },
    vars: { x },
    seed: Array.from({ length: 16 }, () => 1),
  });
  const r = await pool.render('tenant', 128, t, request, DEFAULT_LIMITS, async () => '{}');
  if (r.error) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.output;
};
const codeSends = (id: string) =>
  sent.filter((m) => m.type === 'render' && m.template.id === id && m.template.code !== undefined).length;

describe('template code to a worker', () => {
  const a = template('[{$x|upper}]', 'a.tpl');

  it('goes with the first render only', async () => {
    for (const x of ['p', 'q', 'r']) expect(await render(a, x)).toBe(`[${x.toUpperCase()}]`);
    expect(codeSends('a.tpl')).toBe(1);
  });

  it('goes again for a changed template under the same id (a new template object)', async () => {
    const changed = template('<{$x}>', 'a.tpl');
    expect(await render(changed, 's')).toBe('<s>');
    expect(codeSends('a.tpl')).toBe(2);
    expect(await render(a, 't')).toBe('[T]');
    expect(codeSends('a.tpl')).toBe(2);
  });

  it('past 500 templates the worker forgets them all, and gets the code again when it needs it', async () => {
    for (let i = 0; i < 501; i++) expect(await render(template(`${i}:{$x}`, `many${i}.tpl`))).toBe(`${i}:v`);
    expect(sent.filter((m) => m.type === 'forgetTemplates').length).toBe(1);
    expect(await render(a, 'u')).toBe('[U]');
    expect(codeSends('a.tpl')).toBe(3);
  });

  it('a worker that replaced a dead one gets the code again', async () => {
    const dead = workerProc();
    const exited = new Promise((r) => dead.once('exit', r));
    dead.kill('SIGKILL');
    await exited;
    await new Promise((r) => setTimeout(r, 50));
    spy(worker());
    expect(await render(a, 'w')).toBe('[W]');
    expect(codeSends('a.tpl')).toBe(4);
  });
});
