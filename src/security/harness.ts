/**
 * Runs the security catalogue against an engine and a host, and reports per case and per goal.
 * Exported so that an embedder can run it against its own host adapters.
 */
import { createEngine, type Engine, type RenderOptions } from '../engine.js';
import { renderRawJsForHarness } from '../engine-internal.js';
import { TemplateError } from '../errors.js';
import type { HostOption } from '../host-api/host.js';
import { withAdapters } from '../host-api/resolve.js';
import type { SandboxLimits } from '../sandbox/limits.js';
import type { Canaries, HarnessContext, Outcome, RenderAttempt } from './types.js';
import { startCanaries } from './canaries.js';
import { CATALOGUE, CATALOGUE_IDS } from './cases/index.js';

export interface HarnessOptions {
  /** Host adapters to test (an object or a resolver per tenant); default: the harness's own in-memory host with canaries. */
  host?: (canaries: Canaries) => HostOption;
  /** Only cases whose id starts with one of these. */
  only?: string[];
  onCase?: (r: CaseResult) => void;
  /** Runs of each timing case for goals G3 and G4 (default 100: the goals are p99 figures). */
  repeat?: number;
}

export interface CaseResult {
  id: string;
  category: string;
  title: string;
  outcome: Outcome;
  ms: number;
}

export interface HarnessReport {
  results: CaseResult[];
  notAutomated: string[];
  escaped: number;
}

export async function runSecurityHarness(opts: HarnessOptions = {}): Promise<HarnessReport> {
  const canaries = await startCanaries();
  // One form for the cases: a resolver, which they extend with withAdapters.
  const host = opts.host ? withAdapters(opts.host(canaries), {}) : canaries.host;
  /** Engines a case creates live until the case ends; the shared one for the whole run. */
  let caseEngines: Engine[] = [];
  const engine = (limits?: Partial<SandboxLimits>): Engine => {
    const e = createEngine({ host, limits, timezone: 'Asia/Tokyo' });
    caseEngines.push(e);
    return e;
  };
  const shared = createEngine({ host, timezone: 'Asia/Tokyo' });
  const attempt = async (run: () => Promise<{ output: string }>): Promise<RenderAttempt> => {
    const t0 = performance.now();
    try {
      const r = await run();
      return { output: r.output, ms: performance.now() - t0 };
    } catch (err) {
      const ms = performance.now() - t0;
      if (err instanceof TemplateError) return { code: err.code, message: err.message, line: err.line, ms };
      return { code: 'E_UNCAUGHT', message: err instanceof Error ? err.message : String(err), ms };
    }
  };
  const h: HarnessContext = {
    host,
    canaries,
    repeat: Math.max(1, Math.floor(opts.repeat ?? 100)),
    engine,
    render(template, o: RenderOptions & { limits?: Partial<SandboxLimits>; engine?: Engine } = {}) {
      const e = o.engine ?? (o.limits ? engine(o.limits) : shared);
      return attempt(() => e.render(template, { name: 'attack.tpl', ...o }));
    },
    rawJs(body, o = {}) {
      const e = o.limits ? engine(o.limits) : shared;
      return attempt(() => renderRawJsForHarness(e, body));
    },
  };
  const results: CaseResult[] = [];
  try {
    for (const c of CATALOGUE) {
      if (opts.only && !opts.only.some((p) => c.id.startsWith(p))) continue;
      const before = canaries.connections();
      const t0 = performance.now();
      let outcome: Outcome;
      try {
        outcome = await c.run(h);
      } catch (e) {
        outcome = {
          status: 'escaped',
          detail: `the case itself failed: ${e instanceof Error ? e.message : String(e)}`,
        };
      }
      await Promise.all(caseEngines.map((e) => e.close()));
      caseEngines = [];
      if (canaries.connections() !== before)
        outcome = { status: 'escaped', detail: `a canary listener accepted a connection; ${outcome.detail}` };
      const r: CaseResult = { id: c.id, category: c.category, title: c.title, outcome, ms: performance.now() - t0 };
      results.push(r);
      opts.onCase?.(r);
    }
  } finally {
    await Promise.all(caseEngines.map((e) => e.close()));
    await shared.close();
    await canaries.stop();
  }
  const automated = new Set(results.map((r) => r.id));
  return {
    results,
    notAutomated: CATALOGUE_IDS.filter(
      (id) => !automated.has(id) && (!opts.only || opts.only.some((p) => id.startsWith(p))),
    ),
    escaped: results.filter((r) => r.outcome.status !== 'contained').length,
  };
}
