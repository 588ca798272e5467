/**
 * `serve --isolate-groups FILE`: which sites are one owner's, so that they may share isolates
 * (`--tenants-per-isolate`, docs/decisions.md D342). The operator's file, never a site's own
 * settings: a site.json that could name its group could join another owner's isolates.
 *
 *   { "acme": ["shop", "blog"], "globex": ["www"] }
 *
 * Keys are group names, values lists of site keys; a site in no list has isolates of its own, and
 * a site named twice is refused. Read when serve starts, and again on SIGHUP (`IsolateGroups`):
 * a file that no longer reads keeps the last good one, as a broken site.json does.
 */
import { readFileSync } from 'node:fs';
import { ServeConfigError } from './options.js';

/** Site keys, group names: what a site key or a name may hold (a site key is a folder's name). */
const NAME = /^[A-Za-z0-9._-]{1,128}$/;
const MAX_SITES = 1_000_000;

/** Site key -> group, from the file at `file`. */
export function readIsolateGroups(file: string): Map<string, string> {
  const bad = (what: string): never => {
    throw new ServeConfigError(`--isolate-groups ${file}: ${what}`);
  };
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    return bad((e as NodeJS.ErrnoException).code ? `cannot be read (${(e as Error).message})` : 'is not JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return bad('needs an object of group names, each a list of site keys');
  const groups = new Map<string, string>();
  for (const [group, sites] of Object.entries(value)) {
    if (!NAME.test(group))
      bad(`the group name ${JSON.stringify(group.slice(0, 40))} is not a name (letters, digits, . _ -)`);
    if (!Array.isArray(sites)) return bad(`group "${group}" needs a list of site keys`);
    for (const site of sites as unknown[]) {
      if (typeof site !== 'string' || !NAME.test(site))
        bad(`group "${group}" has ${JSON.stringify(site).slice(0, 40)}, which is not a site key`);
      const other = groups.get(site as string);
      if (other !== undefined) bad(`site "${String(site)}" is in two groups, "${other}" and "${group}"`);
      if (groups.size >= MAX_SITES) bad(`names more than ${MAX_SITES} sites`);
      groups.set(site as string, group);
    }
  }
  return groups;
}

/**
 * Site key -> what it shares isolates with: its group, or, in a group of more sites than one
 * isolate takes (`perIsolate`), the group's part of `perIsolate` sites in the file's order
 * (`acme/1`, `acme/2`, ...; a group name holds no `/`). Under `--processes N` each part is routed
 * on its own (D343): a big owner's sites spread over the processes, each part in one.
 */
export function partsOf(groups: ReadonlyMap<string, string>, perIsolate: number): Map<string, string> {
  // One tenant per isolate shares nothing: there is nothing to cut.
  if (perIsolate < 2) return new Map(groups);
  const sizes = new Map<string, number>();
  for (const g of groups.values()) sizes.set(g, (sizes.get(g) ?? 0) + 1);
  const seen = new Map<string, number>();
  const parts = new Map<string, string>();
  for (const [site, g] of groups) {
    const i = seen.get(g) ?? 0;
    seen.set(g, i + 1);
    parts.set(site, sizes.get(g)! <= perIsolate ? g : `${g}/${Math.floor(i / perIsolate) + 1}`);
  }
  return parts;
}

/** The groups of one file, read again on `reload` (SIGHUP), in parts of `perIsolate` sites. */
export class IsolateGroups {
  private groups: Map<string, string>;

  /** Throws a ServeConfigError when the file is wrong at start. `perIsolate`: `--tenants-per-isolate`. */
  constructor(
    readonly file: string,
    readonly perIsolate = 1,
  ) {
    this.groups = partsOf(readIsolateGroups(file), perIsolate);
  }

  /** The group, or the part of a big one, that `site` shares isolates with (partsOf). */
  groupOf(site: string): string | undefined {
    return this.groups.get(site);
  }

  /**
   * What `serve --processes N` routes a site by (affinity.ts RouteKey): its group's (or part's)
   * key, so that the sites that share isolates are in one child, or its own key. A group's key
   * starts with \u0001, which no site key holds: a group and a site of the same name are two keys,
   * placed apart.
   */
  readonly routeKey = (site: string): string => {
    const group = this.groups.get(site);
    return group === undefined ? site : `\u0001${group}`;
  };

  /**
   * Reads the file again: what to log. A site moved to another group renders in that group's
   * isolates from its next render; its old context goes when it has been idle `isolateIdleMs`.
   */
  reload(): string {
    try {
      const groups = readIsolateGroups(this.file);
      this.groups = partsOf(groups, this.perIsolate);
      const n = new Set(groups.values()).size;
      return `isolate groups: ${groups.size} sites in ${n} group${n === 1 ? '' : 's'}`;
    } catch (e) {
      if (!(e instanceof ServeConfigError)) throw e;
      return `${e.message}; the last good groups stay`;
    }
  }
}
