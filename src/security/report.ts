/** The harness report: one line per case, the cases not automated yet, then the goals with figures. */
import type { HarnessReport } from './harness.js';
import { KILL_BUDGET_MS, overKillBudget } from './cases/mem.js';

export function formatReport(r: HarnessReport): string {
  const lines: string[] = [];
  lines.push('smartcage security harness (catalogue: docs/security.md)', '');
  lines.push(`${'case'.padEnd(8)} ${'cat'.padEnd(4)} ${'outcome'.padEnd(10)} ${'ms'.padStart(7)}  title / detail`);
  for (const c of r.results) {
    lines.push(
      `${c.id.padEnd(8)} ${c.category.padEnd(4)} ${c.outcome.status.padEnd(10)} ${c.ms.toFixed(0).padStart(7)}  ${c.title}`,
    );
    const measured = Object.keys(c.outcome.figures ?? {}).some((k) => k !== 'ms');
    if (c.outcome.status !== 'contained' || measured) lines.push(`${' '.repeat(33)}-> ${c.outcome.detail}`);
  }
  lines.push('', `not yet automated (${r.notAutomated.length}): ${r.notAutomated.join(' ') || 'none'}`, '');
  lines.push(...goals(r));
  const contained = r.results.length - r.escaped;
  lines.push(
    '',
    `${r.results.length} of ${r.results.length + r.notAutomated.length} catalogue cases automated: ${contained} contained, ${r.escaped} escaped`,
  );
  return lines.join('\n');
}

function figure(r: HarnessReport, id: string, key: string): number | undefined {
  return r.results.find((c) => c.id === id)?.outcome.figures?.[key];
}

/** Overshoot of a timing case over its budget: p50/p99/max of its runs (src/security/cases/timing.ts). */
function over(r: HarnessReport, id: string): string {
  const [p50, p99, max] = ['p50', 'p99', 'max'].map((k) => figure(r, id, `${k}_overshoot_ms`));
  if (p50 === undefined || p99 === undefined || max === undefined) return `${id} n/a`;
  return `${id} ${p50.toFixed(0)}/${p99.toFixed(0)}/${max.toFixed(0)} ms`;
}

/** Met when every case's p99 overshoot is within `limit`, over the runs each made. */
function within(r: HarnessReport, ids: string[], limit: number): string {
  const p99 = ids.map((id) => figure(r, id, 'p99_overshoot_ms'));
  if (p99.some((v) => v === undefined)) return 'not measured';
  const runs = Math.min(...ids.map((id) => figure(r, id, 'runs') ?? 0));
  return `${p99.every((v) => (v as number) <= limit) ? 'met' : 'MISSED'} (p99 over ${runs} runs each)`;
}

function neighbour(r: HarnessReport): string {
  const p99 = figure(r, 'CPU-10', 'p99_ratio');
  const tp = figure(r, 'CPU-10', 'throughput_ratio');
  if (p99 === undefined || tp === undefined) return 'not measured';
  return `B's p99 x${p99.toFixed(2)} (goal <= 2), throughput x${tp.toFixed(2)} (goal >= 0.7): ${p99 <= 2 && tp >= 0.7 ? 'met' : 'MISSED'}`;
}

/** HH-NEIGHBOURS: the embedding process and a victim tenant while hostile tenants attack (goals: lag p99 <= 20 ms, no victim failure). */
function neighbours(r: HarnessReport): string {
  const lag = figure(r, 'HH-NEIGHBOURS', 'lag_p99_ms');
  const failed = figure(r, 'HH-NEIGHBOURS', 'victim_failures');
  const p99 = figure(r, 'HH-NEIGHBOURS', 'victim_p99_ms');
  const rss = figure(r, 'HH-NEIGHBOURS', 'rss_max_mb');
  if (lag === undefined || failed === undefined || p99 === undefined || rss === undefined) return 'not measured';
  return `event-loop lag p99 ${lag.toFixed(1)} ms (goal <= 20), RSS max ${rss.toFixed(0)} MB, victim p99 ${p99.toFixed(1)} ms, ${failed} victim failures (goal 0): ${lag <= 20 && failed === 0 ? 'met' : 'MISSED'}`;
}

/** OPS-02: the first render after the bomb, and whether a worker died and was replaced to serve it. */
function restart(r: HarnessReport): string {
  const ms = figure(r, 'OPS-02', 'restart_ms');
  if (ms === undefined) return 'not measured';
  const replaced = figure(r, 'OPS-02', 'workers_replaced') ?? 0;
  return replaced > 0
    ? `${replaced} worker(s) replaced, renders again after ${ms.toFixed(0)} ms (goal 2000 ms): ${ms <= 2000 ? 'met' : 'MISSED'}`
    : `not measured: no worker died (the bomb ended at its isolate's memory limit); renders again after ${ms.toFixed(0)} ms`;
}

function goals(r: HarnessReport): string[] {
  const byId = new Map(r.results.map((c) => [c.id, c]));
  const status = (ids: string[]) =>
    ids.every((id) => byId.get(id)?.outcome.status === 'contained')
      ? 'met'
      : ids.some((id) => byId.has(id))
        ? 'MISSED'
        : 'not measured';

  const kill = [128, 256, 512, 768].map((mb) => {
    const v = figure(r, 'MEM-01', `kill_ms_${mb}`);
    return `${mb}M ${v === undefined ? 'n/a' : `${(v / 1000).toFixed(1)} s`}`;
  });
  // Contained is not enough for G5: each class's kill must also come within its budget.
  const contained = status(['MEM-01']);
  const killSlow = overKillBudget(byId.get('MEM-01')?.outcome.figures).length > 0;
  const killStatus = contained === 'met' && killSlow ? 'MISSED (over its budget)' : contained;
  const budget = Object.entries(KILL_BUDGET_MS)
    .map(([mb, ms]) => `${ms / 1000} s at ${mb}M`)
    .join(', ');
  const total = r.results.length + r.notAutomated.length;
  return [
    'goals (docs/security.md):',
    `  G1  containment: ${r.results.length - r.escaped}/${total} cases automated and contained (${r.notAutomated.length} not automated)`,
    `  G3  CPU budget: overshoot of the 200 ms budget, p50/p99/max of engine.render as the embedder sees it: endless loop ${over(r, 'CPU-01')}, empty loop ${over(r, 'CPU-02')}, nested ${over(r, 'CPU-03')}, catastrophic regex ${over(r, 'RX-01')} (goal p99 <= 50 ms): ${within(r, ['CPU-01', 'CPU-02', 'CPU-03', 'RX-01'], 50)}`,
    `  G4  wall budget: overshoot of the 300 ms deadline, p50/p99/max: sleeping ${over(r, 'CPU-04')}, a host call pending ${over(r, 'OPS-07')} (goal p99 <= 100 ms): ${within(r, ['CPU-04', 'OPS-07'], 100)}`,
    `  G5  memory kill: ${kill.join(', ')} (goal ${budget}): ${killStatus}`,
    `  G6  no process death from templates: ${status(['MEM-02', 'MEM-03', 'MEM-11'])}`,
    `  G13 output and error caps: ${status(['MEM-04', 'IS-06'])}`,
    `  G14 compiler safety: ${status(['CG-01', 'CG-02', 'CG-09', 'CG-17'])} (plus the seeded fuzz in test/compiler/codegen-safety.test.ts)`,
    `  G15 global inventory: ${status(['IS-02'])}`,
    `  G7  CPU neighbour: ${neighbour(r)}`,
    `  G6  worker restart after a V8 fatal error: ${restart(r)}`,
    `  HH  hostile neighbours: ${neighbours(r)}`,
    '  G8, G9-G12, G16-G20: see docs/security.md; measured where their cases are automated above',
  ];
}
