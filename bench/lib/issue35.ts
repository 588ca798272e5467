/**
 * Issue 35's goals as rows of bench/RESULTS.md, each a ratio (or a figure) of one run: the five
 * pages against Smarty 2.6.33 and the endpoints against plain node:http are read from what
 * bench/pages.ts and bench/serve.ts printed in that run (their table and `rps:` lines, whose
 * shapes test/bench checks), the rest from the run's own stages and rounds (bench/run.ts).
 */

/** The figures of the pages' table: each page's ratio to Smarty 2.6.33, one tenant and N in turn. */
export interface PagesFigures {
  bySmarty: Map<string, number>;
  tenantsBySmarty: Map<string, number>;
  /** The header of the many-tenants column ("smartcage, 16 tenants"), or null without one. */
  tenantsLabel: string | null;
  /** The same tenants sharing isolates (`--shared`, D342), when the table has that column. */
  sharedBySmarty: Map<string, number>;
  sharedLabel: string | null;
  /**
   * An empty template with each page's vars, against Smarty 2.6.33's whole page: the floor of the
   * sandbox's request on that page (empty when the table has no such column).
   */
  floorBySmarty: Map<string, number>;
}

const cells = (line: string) =>
  line
    .split('|')
    .slice(1, -1)
    .map((c) => c.trim().replace(/\*\*/g, ''));

/** Reads bench/pages.ts's markdown table; null when it has no Smarty 2.6.33 column (no SMARTY2_DIR). */
export function readPages(text: string): PagesFigures | null {
  const lines = text.split('\n');
  const head = lines.find((l) => l.startsWith('| page |'));
  if (!head) return null;
  const names = cells(head);
  const one = names.indexOf('smartcage / Smarty 2');
  if (one < 0) return null;
  const many = names.findIndex((n) => /^smartcage, \d+ tenants \/ Smarty 2$/.test(n));
  const shared = names.findIndex((n) => /^smartcage, \d+ tenants sharing isolates \d+ at a time \/ Smarty 2$/.test(n));
  const floor = names.indexOf('smartcage, an empty template / Smarty 2');
  const figures: PagesFigures = {
    bySmarty: new Map(),
    tenantsBySmarty: new Map(),
    tenantsLabel: many < 0 ? null : names[many]!.replace(/ \/ Smarty 2$/, ''),
    sharedBySmarty: new Map(),
    sharedLabel: shared < 0 ? null : names[shared]!.replace(/^smartcage, \d+ tenants | \/ Smarty 2$/g, ''),
    floorBySmarty: new Map(),
  };
  for (const line of lines.slice(lines.indexOf(head) + 2)) {
    if (!line.startsWith('| ')) break;
    const row = cells(line);
    figures.bySmarty.set(row[0]!, Number(row[one]));
    if (many >= 0) figures.tenantsBySmarty.set(row[0]!, Number(row[many]));
    if (shared >= 0) figures.sharedBySmarty.set(row[0]!, Number(row[shared]));
    if (floor >= 0) figures.floorBySmarty.set(row[0]!, Number(row[floor]));
  }
  return figures;
}

/** An endpoint of bench/serve.ts's `rps` lines: CPU per request, and × the plain server's. */
export interface EndpointFigures {
  ms: number;
  timesPlain: number;
}

/**
 * Reads bench/serve.ts's `rps:` lines of one variant (`serve`, the default one; `processes`, the
 * full bench's `--processes 2`), by endpoint.
 */
export function readServe(text: string, variant = 'serve'): Map<string, EndpointFigures> {
  const out = new Map<string, EndpointFigures>();
  for (const m of text.matchAll(new RegExp(`^rps: ([\\w-]+) ${variant}: .*?\\(([\\d.]+) ms CPU per request`, 'gm')))
    out.set(m[1]!, { ms: Number(m[2]), timesPlain: NaN });
  const ratios = new RegExp(
    `^rps: ([\\w-]+): ${variant} \\/ plain .*?CPU per request ([\\d.]+)x the plain server's`,
    'gm',
  );
  for (const m of text.matchAll(ratios)) {
    const e = out.get(m[1]!);
    if (e) e.timesPlain = Number(m[2]);
  }
  return out;
}
