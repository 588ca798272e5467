/**
 * Goals G3 and G4 are p99 figures (issue 4: "within budget + 50 ms, p99 over 100 runs"): a
 * timing case renders its template `h.repeat` times back to back, through engine.render as an
 * embedder sees it, and reports p50, p99 and max of the overshoot over the budget.
 */
import type { HarnessContext, Outcome, RenderAttempt } from '../types.js';
import { judge } from './helpers.js';

/** Nearest-rank percentile of sorted values (p99 of 20 runs is their maximum). */
export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))];
}

/**
 * Runs `attempt` `h.repeat` times. Contained when every run was refused as `ok` says, named a
 * template line, and leaked nothing; figures: runs, p50/p99/max overshoot of `budgetMs`.
 */
export async function repeatedLimit(
  h: HarnessContext,
  what: string,
  budgetMs: number,
  attempt: () => Promise<RenderAttempt>,
  ok: (a: RenderAttempt) => boolean,
): Promise<Outcome> {
  const over: number[] = [];
  const lines = new Set<number>();
  for (let i = 0; i < h.repeat; i++) {
    const a = await attempt();
    const o = judge(h, a, ok(a) && (a.line ?? 0) > 0, `${what} naming the template line`);
    if (o.status !== 'contained')
      return { ...o, detail: `run ${i + 1} of ${h.repeat}: ${o.detail}${ok(a) ? ` (line ${a.line ?? 0})` : ''}` };
    over.push(a.ms - budgetMs);
    lines.add(a.line ?? 0);
  }
  over.sort((x, y) => x - y);
  const figures = {
    runs: over.length,
    p50_overshoot_ms: percentile(over, 0.5),
    p99_overshoot_ms: percentile(over, 0.99),
    max_overshoot_ms: over[over.length - 1],
  };
  const f = (v: number) => `${v.toFixed(0)} ms`;
  return {
    status: 'contained',
    detail: `${what} in ${over.length} of ${over.length} runs (line ${[...lines].join('/')}); overshoot of the ${budgetMs} ms budget: p50 ${f(figures.p50_overshoot_ms)}, p99 ${f(figures.p99_overshoot_ms)}, max ${f(figures.max_overshoot_ms)}`,
    figures,
  };
}
