/**
 * smartcage's compiled page inside an isolate, measured directly with isolated-vm (no engine
 * around it), next to the hand-written function in the same isolate:
 * - sc.inIsolate / plain.inIsolate: N renders inside one call, vars resident, only lengths out
 *   (the compiled code's own speed: target (a));
 * - sc.call.resident: one sync call per render, vars resident (converted to PHP values per call
 *   by smartcage.render), the 31 KB output copied out;
 * - sc.call.copy / plain.call.copy: one sync call per render with the vars copied in
 *   (ExternalCopy, as IsolateHost does), a timeout, and the output copied out;
 * - sc.call.copy.async / plain.call.copy.async: the same through the async `apply` IsolateHost
 *   uses; the hand-written one is the floor of any render that starts with the async API
 *   (docs/security.md OPS-04 and OPS-05 rule out the sync call for renders).
 */
import ivm from 'isolated-vm';
import { generate } from '../data/generate.js';
import { BenchIsolate, PAGE_TPL, renderRequest } from '../lib/harness.js';
import type { Suite } from '../lib/child.js';

type RenderResult = { output?: string; error?: { code: string; message: string } };

export default async function sandbox(): Promise<Suite> {
  const data = generate();
  const b = new BenchIsolate();
  b.define(PAGE_TPL, 'page.tpl');
  b.setResident(data);
  const scLoop = b.fn('scLoop');
  const scOnce = b.fn('scOnce');
  const plainLoop = b.fn('plainLoop');
  const plainOnce = b.fn('plainOnce');
  const plainWith = b.fn('plainWith');
  const opts = { timeout: 1000 };
  const copied = (): RenderResult => {
    const args = new ivm.ExternalCopy(renderRequest(data)).copyInto({ release: true });
    const r = b.render.applySync(undefined, ['page.tpl', args], {
      timeout: 1000,
      result: { copy: true },
    }) as RenderResult;
    if (r.error) throw new Error(`${r.error.code}: ${r.error.message}`);
    return r;
  };
  const copiedAsync = async (): Promise<RenderResult> => {
    const args = new ivm.ExternalCopy(renderRequest(data)).copyInto({ release: true });
    const r = (await b.render.apply(undefined, ['page.tpl', args], {
      timeout: 1000,
      result: { copy: true },
    })) as RenderResult;
    if (r.error) throw new Error(`${r.error.code}: ${r.error.message}`);
    return r;
  };
  // The hand-written function takes the data itself (no render request around it).
  const plainArgs = () => [new ivm.ExternalCopy(data).copyInto({ release: true })];
  const plainCopied = () => plainWith.applySync(undefined, plainArgs(), opts) as string;
  const plainCopiedAsync = async () => (await plainWith.apply(undefined, plainArgs(), opts)) as string;
  let sink = 0;
  return {
    subjects: {
      'sc.inIsolate': {
        output: () => scOnce.applySync(undefined, ['page.tpl']) as string,
        run: (n) => void (sink += scLoop.applySync(undefined, ['page.tpl', n]) as number),
      },
      'plain.inIsolate': {
        output: () => plainOnce.applySync(undefined, []) as string,
        run: (n) => void (sink += plainLoop.applySync(undefined, [n]) as number),
      },
      'sc.call.resident': {
        output: () => scOnce.applySync(undefined, ['page.tpl'], opts) as string,
        run(n) {
          for (let i = 0; i < n; i++) sink += (scOnce.applySync(undefined, ['page.tpl'], opts) as string).length;
        },
      },
      'sc.call.copy': {
        output: () => copied().output!,
        run(n) {
          for (let i = 0; i < n; i++) sink += copied().output!.length;
        },
      },
      'sc.call.copy.async': {
        output: async () => (await copiedAsync()).output!,
        async run(n) {
          for (let i = 0; i < n; i++) sink += (await copiedAsync()).output!.length;
        },
      },
      'plain.call.copy.async': {
        output: plainCopiedAsync,
        async run(n) {
          for (let i = 0; i < n; i++) sink += (await plainCopiedAsync()).length;
        },
      },
      'plain.call.copy': {
        output: plainCopied,
        run(n) {
          for (let i = 0; i < n; i++) sink += plainCopied().length;
        },
      },
    },
    close: () => b.dispose(),
  };
}
