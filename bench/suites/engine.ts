/**
 * The whole sandboxed render per request through the public API: `engine.render(source, {vars})`
 * (`engine:0` isolates in this process, `engine:1` and `engine:2` sandbox worker processes). Per
 * render: compile-cache lookup (hash of the source), request object, vars copied in, render,
 * output out; with workers, the trip to the worker and back too. CPU counts the worker
 * processes. The engine gives every render a new random request id unless told one.
 *
 * Two subjects per configuration: `sc.engine.wN`, renders awaited one at a time (CPU per render,
 * issue 18's first target), and `sc.engine.wN.burst`, BURST_IN_FLIGHT renders in flight spread
 * over BURST_TENANTS tenants (wall per render: how fast a burst of requests is served).
 */
import { generate } from '../data/generate.js';
import { loadSmartcage } from '../lib/smartcage.js';
import { PAGE_TPL } from '../lib/harness.js';
import type { Suite, SuiteOptions } from '../lib/child.js';

export const BURST_IN_FLIGHT = 8;
/** More tenants than renders in flight: a tenant renders one at a time (`perTenantConcurrency`). */
const BURST_TENANTS = 16;

export default async function engine({ arg }: SuiteOptions): Promise<Suite> {
  // `engine:0r`: the same with a fixed identity.requestId (see the README: the engine's per-render
  // request-globals sweep grows with the renders of the last ten minutes when every render gets a new id).
  const workers = Number((arg ?? '0').replace('r', ''));
  const fixedRequest = (arg ?? '').endsWith('r');
  const identity = { tenant: 't1', ...(fixedRequest ? { requestId: 'bench-request' } : {}) };
  const data = generate() as unknown as Record<string, unknown>;
  const { createEngine } = await loadSmartcage();
  const e = createEngine({ workers, timezone: 'UTC' });
  const render = async (tenant = identity) =>
    (await e.render(PAGE_TPL, { name: 'page.tpl', vars: data, identity: tenant })).output;
  const tenants = Array.from({ length: BURST_TENANTS }, (_, i) => ({ tenant: `burst${i}` }));
  let next = 0;
  const burst = async (n: number) => {
    let started = 0;
    const lane = async () => {
      while (started < n) {
        started++;
        await render(tenants[next++ % BURST_TENANTS]);
      }
    };
    await Promise.all(Array.from({ length: Math.min(BURST_IN_FLIGHT, n) }, lane));
  };
  const name = `sc.engine.w${workers}${fixedRequest ? '.req' : ''}`;
  return {
    subjects: {
      [name]: {
        output: render,
        async run(n) {
          for (let i = 0; i < n; i++) await render();
        },
        pids: () => e.pids(),
      },
      ...(fixedRequest
        ? {}
        : {
            [`${name}.burst`]: {
              output: async () => {
                // Every tenant's isolate made before timing starts.
                await burst(BURST_TENANTS);
                return render(tenants[0]);
              },
              run: burst,
              pids: () => e.pids(),
            },
          }),
    },
    close: () => e.close(),
  };
}
