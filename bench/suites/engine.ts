/**
 * The whole sandboxed render per request through the public API: `engine.render(source, {vars})`
 * awaited one at a time (`engine:0` isolates in this process, `engine:1` one sandbox worker
 * process). Per render: compile-cache lookup (hash of the source), request object, vars copied
 * in, render, output out; with workers, the IPC to the worker and back too. CPU counts the
 * worker processes.
 */
import { generate } from '../data/generate.js';
import { createEngine } from '../../src/index.js';
import { PAGE_TPL } from '../lib/harness.js';
import type { Suite, SuiteOptions } from '../lib/child.js';

export default async function engine({ arg }: SuiteOptions): Promise<Suite> {
  const workers = Number(arg ?? 0);
  const data = generate() as unknown as Record<string, unknown>;
  const e = createEngine({ workers, timezone: 'UTC' });
  const render = async () => (await e.render(PAGE_TPL, { name: 'page.tpl', vars: data, identity: { tenant: 't1' } })).output;
  let sink = 0;
  return {
    subjects: {
      [`sc.engine.w${workers}`]: {
        output: render,
        async run(n) {
          for (let i = 0; i < n; i++) sink += (await render()).length;
        },
        pids: () => e.pids(),
      },
    },
    close: () => e.close(),
  };
}
