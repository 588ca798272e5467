/**
 * A bench-only isolate set up the way src/sandbox/isolate-host.ts sets one up (runtime bundle,
 * bootstrap with its lockdown, the compiled template defined), with a little extra installed
 * before the bootstrap freezes everything:
 * - the template's render function is wrapped so that one `smartcage.render()` can run it
 *   `loop` times in a row on the same scope and render state (vars resident, nothing crosses the
 *   boundary): this times the compiled code alone, as the anchors' "50 renders in one call";
 * - the hand-written function is defined in the same isolate, for the same measurement.
 * Nothing in src/ is changed; the runtime is dist/runtime.bundle.js as the engine loads it.
 */
import ivm from 'isolated-vm';
import { readFileSync } from 'node:fs';
import { loadSmartcage } from './smartcage.js';
import { renderRequest as buildRequest, withLimits, type RenderRequestInput } from '../../src/sandbox/request.js';
import type { RenderRequest } from '../../src/protocol/render.js';
import { DEFAULT_LIMITS } from '../../src/sandbox/limits.js';
import { makeHandWritten } from '../engines/hand-written.js';
import type { PageData } from '../data/generate.js';

export const RUNTIME_BUNDLE = new URL('../../dist/runtime.bundle.js', import.meta.url);
export const PAGE_TPL = readFileSync(new URL('../templates/page.tpl', import.meta.url), 'utf8');

const { compile } = await loadSmartcage();

const PRELUDE = `globalThis.__bench = (() => {
  const __name = (f) => f;
  const st = { loop: 0, total: 0, req: null, data: null, reqs: new Map() };
  // \`key\`: one of several resident requests (bench/costs.ts --entry); none: the one of setRequest.
  const reqOf = (key) => (key === undefined ? st.req : st.reqs.get(key));
  const plain = (${String(makeHandWritten)})();
  const define = smartcage.define;
  smartcage.define = function (name, factory) {
    return define.call(this, name, (api) => {
      const r = factory(api);
      return function (s, $) {
        const n = st.loop;
        if (n > 0) {
          let len = 0;
          for (let i = 0; i < n; i++) len += r(s, $).length;
          st.total = len;
          return '';
        }
        return r(s, $);
      };
    });
  };
  const scLoop = (id, n, key) => {
    st.loop = n;
    try { check(smartcage.render(id, reqOf(key))); } finally { st.loop = 0; }
    return st.total;
  };
  const check = (res) => { if (res.error) throw new Error(res.error.code + ': ' + res.error.message); return res; };
  return {
    // The hand-written function reads a copy of its own: a smartcage render reads its vars in
    // place and writes converted nested values back (src/value/php-array.ts, lazy records).
    // \`data\`: the vars as plain data, when the request sends them as tables (bench/costs.ts).
    setRequest(req, data) { st.req = req; st.data = JSON.parse(JSON.stringify(data ?? req.vars.value ?? req.vars)); },
    addRequest(key, req) { st.reqs.set(key, req); },
    scLoop,
    // \`smartcage.render\` n times in one call (--entry); \`flat\`: each output flattened, as the
    // copy out does (V8's serializer flattens a string before it writes it).
    scRenders(id, n, key, flat) {
      const req = reqOf(key);
      let c = 0;
      for (let i = 0; i < n; i++) {
        const r = check(smartcage.render(id, req));
        const out = typeof r === 'string' ? r : r.output;
        c += flat ? out.charCodeAt(0) | 0 : out.length;
      }
      return c;
    },
    // A short output with nothing else comes back as the string alone (docs/decisions.md D276).
    scOnce(id, key) { const r = check(smartcage.render(id, reqOf(key))); return typeof r === 'string' ? r : r.output; },
    plainLoop(n) { let len = 0; for (let i = 0; i < n; i++) len += plain(st.data).length; return len; },
    plainOnce() { return plain(st.data); },
    plainWith(d) { return plain(d); },
  };
})();`;

/** The engine's render request (src/sandbox/request.ts) with a fixed clock and seed, and the default limits, as IsolateHost sends it. */
export function renderRequest(vars: unknown, name = 'page.tpl'): RenderRequest {
  const body = buildRequest({
    templateName: name,
    now: 1_700_000_000,
    site: { timezone: 'UTC', lang: 'ja', rootUrl: 'http://localhost' },
    vars: vars as RenderRequestInput['vars'],
    seed: Array.from({ length: 16 }, (_, i) => i),
  });
  return withLimits(body, DEFAULT_LIMITS);
}

export class BenchIsolate {
  readonly isolate: ivm.Isolate;
  readonly context: ivm.Context;
  private readonly bench: ivm.Reference<Record<string, unknown>>;
  readonly render: ivm.Reference<(...a: unknown[]) => unknown>;
  private fns = new Map<string, ivm.Reference<(...a: unknown[]) => unknown>>();
  /**
   * A runtime from before variables were a tagged union (D195) reads them as an object of names:
   * bench/ab.ts compares such revisions too, so `setResident` sends them in the form it reads.
   */
  private readonly namesOnly: boolean;

  /**
   * `runtime`: the bundle's text (bench/ab.ts passes another revision's). `isolate`: a context of
   * its own in that isolate instead of a new isolate (bench/contexts.ts, tenants sharing one).
   */
  constructor(memoryMB = 128, runtime = readFileSync(RUNTIME_BUNDLE, 'utf8'), isolate?: ivm.Isolate) {
    this.namesOnly = !runtime.includes('plain-json');
    this.isolate = isolate ?? new ivm.Isolate({ memoryLimit: memoryMB });
    this.context = this.isolate.createContextSync();
    this.isolate.compileScriptSync(runtime, { filename: 'smartcage-runtime.js' }).runSync(this.context);
    this.context.evalSync(PRELUDE, { filename: 'bench-prelude.js' });
    // BENCH_NO_LOCKDOWN=1 (experiments only): skip the bootstrap's lockdown, to measure what it costs.
    this.context.evalSync(process.env.BENCH_NO_LOCKDOWN ? 'smartcage.bootstrap = () => {};' : 'smartcage.bootstrap();');
    this.bench = this.context.global.getSync('__bench', { reference: true }) as ivm.Reference<Record<string, unknown>>;
    const sc = this.context.global.getSync('smartcage', { reference: true }) as ivm.Reference<Record<string, unknown>>;
    this.render = sc.getSync('render', { reference: true }) as ivm.Reference<(...a: unknown[]) => unknown>;
  }

  /** Compiles `source` with compile() and defines it in the context under `id`. */
  define(source: string, id: string): void {
    this.defineCode(compile(source, { name: id, id }).code, id);
  }

  /** Defines compiled code (its define call names `id`). */
  defineCode(code: string, id: string): void {
    this.isolate.compileScriptSync(code, { filename: `${id}.js` }).runSync(this.context);
  }

  fn(name: string): ivm.Reference<(...a: unknown[]) => unknown> {
    let f = this.fns.get(name);
    if (!f) {
      f = this.bench.getSync(name, { reference: true }) as ivm.Reference<(...a: unknown[]) => unknown>;
      this.fns.set(name, f);
    }
    return f;
  }

  /** Makes `data` resident: copied in once, kept by the prelude. */
  setResident(data: PageData): void {
    const request = renderRequest(data);
    const sent = this.namesOnly ? { ...request, vars: data, objects: false } : request;
    this.fn('setRequest').applySync(undefined, [new ivm.ExternalCopy(sent).copyInto({ release: true })]);
  }

  dispose(): void {
    if (!this.isolate.isDisposed) this.isolate.dispose();
  }
}
