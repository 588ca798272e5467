/**
 * Smarty 2.6.33 on PHP 8.2 with OPcache as a benchmark peer (bench/pages/smarty2.php): a
 * long-running PHP process that renders each page it is given N times and reports its output
 * and CPU µs per render. Shared by bench:pages and bench:constructs.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');

export interface Smarty2Page {
  name: string;
  template: string;
  vars: unknown;
  timezone: string;
}

export interface Smarty2Answer {
  opcache: boolean;
  php: string;
  pages: { name: string; output: string; cpuUs: number }[];
}

/** Why the peer cannot run here (its row is then skipped with this note), or null. */
export function smarty2Missing(): string | null {
  const dir = process.env.SMARTY2_DIR;
  if (!dir || !existsSync(join(dir, 'libs/Smarty.class.php')))
    return 'skipped: SMARTY2_DIR is not set to an unpacked Smarty 2.6.33';
  if (spawnSync('php', ['-v']).status !== 0) return 'skipped: no php on the PATH';
  return null;
}

/** One run of the PHP process over every page, `renders` timed renders each. */
export function smarty2(ps: readonly Smarty2Page[], renders: number): Smarty2Answer {
  const job = JSON.stringify({
    renders,
    pages: ps.map((p) => ({ name: p.name, template: p.template, vars: JSON.stringify(p.vars), timezone: p.timezone })),
  });
  const r = spawnSync('php', ['-d', 'opcache.enable_cli=1', join(ROOT, 'bench/pages/smarty2.php')], {
    input: job,
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  if (r.status !== 0) throw new Error(`smarty2.php exited ${r.status}: ${r.stderr.slice(0, 500)}`);
  return JSON.parse(r.stdout) as Smarty2Answer;
}

/** Where `got` first departs from `want`, with 40 characters around it. */
export function firstDifference(want: string, got: string): string {
  let i = 0;
  while (i < want.length && want[i] === got[i]) i++;
  return `at ${i}: expected ${JSON.stringify(want.slice(Math.max(0, i - 40), i + 40))}, got ${JSON.stringify(got.slice(Math.max(0, i - 40), i + 40))}`;
}

export const geomean = (xs: readonly number[]): number => Math.exp(xs.reduce((a, x) => a + Math.log(x), 0) / xs.length);
