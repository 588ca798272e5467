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

/** The groups of one file, read again on `reload` (SIGHUP). */
export class IsolateGroups {
  private groups: Map<string, string>;

  /** Throws a ServeConfigError when the file is wrong at start. */
  constructor(readonly file: string) {
    this.groups = readIsolateGroups(file);
  }

  groupOf(site: string): string | undefined {
    return this.groups.get(site);
  }

  /**
   * What `serve --processes N` routes a site by (affinity.ts RouteKey): its group's key, so that the
   * group's sites share one child's isolates, or its own key. A group's key starts with \u0001,
   * which no site key holds: a group and a site of the same name are two keys, placed apart.
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
      this.groups = readIsolateGroups(this.file);
      const n = new Set(this.groups.values()).size;
      return `isolate groups: ${this.groups.size} sites in ${n} group${n === 1 ? '' : 's'}`;
    } catch (e) {
      if (!(e instanceof ServeConfigError)) throw e;
      return `${e.message}; the last good groups stay`;
    }
  }
}
