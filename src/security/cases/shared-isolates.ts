/**
 * Tenants of one isolate group sharing isolates, a context each (docs/security.md IS-18,
 * docs/decisions.md D342): assume breach in one tenant's context and look for another's code and
 * data from there; and a runaway render of one tenant with another's queued behind it.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createEngine, type Engine, type RenderOptions } from '../../engine.js';
import { renderRawJsForHarness } from '../../engine-internal.js';
import type { HarnessContext, Outcome, SecurityCase } from '../types.js';

/**
 * Raw JavaScript that walks everything reachable from its context's global object (own names and
 * symbols, prototypes, function sources) for `needle`, and says where it found it or how much it read.
 */
const search = (needle: string) => `
  const needle = ${JSON.stringify(needle)};
  const seen = new Set();
  const found = [];
  const look = (v, path, depth) => {
    if (typeof v === 'string') { if (v.includes(needle)) found.push(path); return; }
    if ((typeof v !== 'object' && typeof v !== 'function') || v === null || seen.has(v) || depth > 6) return;
    seen.add(v);
    if (typeof v === 'function') { try { look(Function.prototype.toString.call(v), path + '()', depth); } catch {} }
    let keys = [];
    try { keys = Reflect.ownKeys(v); } catch {}
    for (const k of keys) {
      let d;
      try { d = Object.getOwnPropertyDescriptor(v, k); } catch { continue; }
      if (!d) continue;
      const at = path + '.' + String(k);
      if ('value' in d) look(d.value, at, depth + 1);
      else { look(d.get, at + '[get]', depth + 1); look(d.set, at + '[set]', depth + 1); }
    }
    try { look(Object.getPrototypeOf(v), path + '.__proto__', depth + 1); } catch {}
  };
  look(globalThis, 'globalThis', 0);
  return found.length ? 'found at ' + found.slice(0, 3).join(', ') : 'clean:' + seen.size;`;

async function run(e: Engine, body: string, opts: RenderOptions) {
  try {
    return { output: (await renderRawJsForHarness(e, body, opts)).output };
  } catch (err) {
    return { code: (err as { code?: string }).code ?? 'E_UNCAUGHT', output: undefined as string | undefined };
  }
}

async function sharedIsolates(h: HarnessContext): Promise<Outcome> {
  const e = createEngine({
    workers: 1,
    host: h.host,
    limits: { cpuMs: 300, wallMs: 3000 },
    pool: { tenantsPerIsolate: 4 },
    isolateGroup: (identity) => (identity.tenant.startsWith('owner-') ? 'owner' : undefined),
  });
  try {
    const secret = `shared-${randomBytes(12).toString('hex')}`;
    const a = { identity: { tenant: 'owner-a' } };
    const b = { identity: { tenant: 'owner-b' } };
    // Tenant A leaves its secret in its code and on RegExp.prototype, the one built-in a render may
    // still change (its context is then replaced, IS-12): the search's control, in A's own context,
    // must find it there.
    const leave = `try { RegExp.prototype.leak = ${JSON.stringify(secret)}; } catch {}`;
    const own = await run(e, leave + search(secret), a);
    if (!own.output?.startsWith('found at '))
      return { status: 'escaped', detail: `the search does not see what a tenant left: ${own.output ?? own.code}` };
    // A template that changes nothing, so that A's context is kept (the one above was replaced).
    const body = `return ${JSON.stringify(secret)}.length + "";`;
    for (let i = 0; i < 2; i++) await run(e, body, a);
    // The templates a context defines are named on its `smartcage` object: A's is there for A, and
    // would be there for B in a context they shared. (The harness names raw bodies by their digest.)
    const id = `raw.js#${createHash('sha256').update(body).digest('hex').slice(0, 16)}`;
    const defined = `return String(globalThis.smartcage.has(${JSON.stringify(id)}));`;
    const [ownHas, otherHas] = [await run(e, defined, a), await run(e, defined, b)];
    if (ownHas.output !== 'true' || otherHas.output !== 'false')
      return {
        status: 'escaped',
        detail: `A's template defined: for A ${ownHas.output ?? ownHas.code}, for B ${otherHas.output ?? otherHas.code}`,
      };
    const seen = await run(e, search(secret), b);
    if (e.stats().isolates !== 1)
      return { status: 'escaped', detail: `the group's two tenants were not in one isolate (${e.stats().isolates})` };
    if (seen.output === undefined || !seen.output.startsWith('clean:') || h.canaries.leaked(seen.output))
      return { status: 'escaped', detail: `tenant B, searching its context: ${seen.output ?? seen.code}` };
    // A runaway render of A, and B's render queued behind it in the same isolate.
    const runaway = run(e, 'for (;;) {}', a);
    const queued = e.render('{$x}', { ...b, vars: { x: 'after' } }).then(
      (r) => r.output,
      (err: { code?: string }) => err.code ?? 'threw',
    );
    const [stopped, after] = await Promise.all([runaway, queued]);
    if (stopped.code !== 'E_CPU_TIMEOUT' || after !== 'after')
      return {
        status: 'escaped',
        detail: `A's runaway ended ${stopped.code ?? stopped.output}; B's render queued behind it gave ${after}`,
      };
    return {
      status: 'contained',
      detail: `A's template is defined in A's context, not in B's; tenant A's search of its own context found its secret (${own.output.slice(9, 60)}); tenant B read ${seen.output.slice(6)} objects of its context and found nothing of A's; A's runaway ended E_CPU_TIMEOUT and B's queued render ran on a new isolate`,
    };
  } finally {
    await e.close();
  }
}

export const IS_SHARED: SecurityCase[] = [
  {
    id: 'IS-18',
    category: 'IS',
    title:
      "tenants of one isolate group sharing an isolate: one tenant's context reaches nothing of another's, and a runaway ends only its own render",
    run: sharedIsolates,
  },
];
