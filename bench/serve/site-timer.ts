/**
 * What bench/serve/breakdown.ts and news-parts.ts share: the site folder of the command line
 * opened in this process (`SITE_DIR [--workers N] [--n N]`), and `time`, which prints the CPU µs
 * per call of a step, after a warm-up, median of 5 rounds of N calls.
 */
import { SiteRegistry } from '../../src/site/registry.js';
import type { SiteContext } from '../../src/site/site-context.js';

const argv = process.argv.slice(2);
const opt = (name: string, dflt: number) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? Number(argv[i + 1]) : dflt;
};
const N = opt('n', 400);

/** The first site of the folder named on the command line, and its registry (to close). */
export async function openBenchSite(): Promise<{ site: SiteContext; registry: SiteRegistry }> {
  const registry = SiteRegistry.folder(argv[0]!, { engine: { workers: opt('workers', 0) } });
  return { site: (await registry.open(registry.keys()[0]!)) as SiteContext, registry };
}

export async function time(name: string, fn: () => unknown): Promise<void> {
  for (let i = 0; i < 100; i++) await fn();
  const rounds: number[] = [];
  for (let r = 0; r < 5; r++) {
    const t = process.cpuUsage();
    for (let i = 0; i < N; i++) await fn();
    const u = process.cpuUsage(t);
    rounds.push((u.user + u.system) / N);
  }
  rounds.sort((a, b) => a - b);
  console.log(
    `${name.padEnd(58)} ${rounds[2]!.toFixed(0).padStart(6)} µs  (${rounds[0]!.toFixed(0)}-${rounds[4]!.toFixed(0)})`,
  );
}
