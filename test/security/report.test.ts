/**
 * The harness report's goal lines say what the figures show (docs/decisions.md D310): G5 is met
 * only when each memory class's kill came within its budget, and G6's restart is timed only when
 * a worker actually died.
 */
import { describe, expect, it } from 'vitest';
import { formatReport } from '../../src/security/report.js';
import type { HarnessReport } from '../../src/security/harness.js';

function report(figures: Record<string, Record<string, number>>): HarnessReport {
  return {
    results: Object.entries(figures).map(([id, f]) => ({
      id,
      category: id.startsWith('MEM') ? 'MEM' : 'OPS',
      title: id,
      ms: 1,
      outcome: { status: 'contained', detail: 'ok', figures: f },
    })),
    notAutomated: [],
    escaped: 0,
  };
}

const line = (text: string, goal: string) => text.split('\n').find((l) => l.trimStart().startsWith(goal)) ?? '';

describe('security report goal lines', () => {
  const kills = { kill_ms_128: 1200, kill_ms_256: 2000, kill_ms_512: 3000, kill_ms_768: 5000 };

  it('G5 is met when every class is killed within its budget', () => {
    expect(line(formatReport(report({ 'MEM-01': kills })), 'G5')).toMatch(/: met$/);
  });

  it('G5 is missed when one class is over its budget, though the case was contained', () => {
    const g5 = line(formatReport(report({ 'MEM-01': { ...kills, kill_ms_128: 2700 } })), 'G5');
    expect(g5).toContain('128M 2.7 s');
    expect(g5).toMatch(/MISSED/);
  });

  it('G6 times a restart only when a worker was replaced', () => {
    const none = line(formatReport(report({ 'OPS-02': { restart_ms: 90, workers_replaced: 0 } })), 'G6  worker');
    expect(none).toMatch(/not measured: no worker died/);
    const one = line(formatReport(report({ 'OPS-02': { restart_ms: 950, workers_replaced: 1 } })), 'G6  worker');
    expect(one).toMatch(/1 worker\(s\) replaced, renders again after 950 ms \(goal 2000 ms\): met/);
    const slow = line(formatReport(report({ 'OPS-02': { restart_ms: 2500, workers_replaced: 1 } })), 'G6  worker');
    expect(slow).toMatch(/MISSED/);
  });
});
