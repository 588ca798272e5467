/**
 * The whole sandboxed render per request through the public API: `engine.render(source, {vars})`
 * awaited one at a time (`engine:0` isolates in this process, `engine:1` one sandbox worker
 * process). Per render: compile-cache lookup (hash of the source), request object, vars copied
 * in, render, output out; with workers, the IPC to the worker and back too. CPU counts the
 * worker processes. The engine gives every render a new random request id unless told one.
 */
import { generate } from '../data/generate.js';
import { loadSmartcage } from '../lib/smartcage.js';
import { PAGE_TPL } from '../lib/harness.js';
import type { Suite, SuiteOptions } from '../lib/child.js';

export default async function engine({ arg }: SuiteOptions): Promise<Suite> {
  // `engine:0r`: the same with a fixed identity.requestId (see the README: the engine's per-render
  // request-globals sweep grows with the renders of the last ten minutes when every render gets a new id).
  const workers = Number((arg ?? '0').replace('r', ''));
  const fixedRequest = (arg ?? '').endsWith('r');
  const identity = { tenant: 't1', ...(fixedRequest ? { requestId: 'bench-request' } : {}) };
  const data = generate() as unknown as Record<string, unknown>;
  const { createEngine } = await loadSmartcage();
  const e = createEngine({ workers, timezone: 'UTC' });
  const render = async () => (await e.render(PAGE_TPL, { name: 'page.tpl', vars: data, identity })).output;
  return {
    subjects: {
      [`sc.engine.w${workers}${fixedRequest ? '.req' : ''}`]: {
        output: render,
        async run(n) {
          for (let i = 0; i < n; i++) await render();
        },
        pids: () => e.pids(),
      },
    },
    close: () => e.close(),
  };
}
