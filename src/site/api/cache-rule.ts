/**
 * Which endpoints may keep their answers (site.json `endpoints[].cache`; D234). An answer may be
 * kept only when making it again would give the same bytes to the same member for the same query
 * until the site's content changes: the function (with everything it includes) must only read.
 * The compile tells what it calls (the template manifest) and the compiled code tells what of
 * the request it reads; the rule is an allowlist, so a plugin added later is refused until it is
 * listed here:
 *
 * - host plugins: only those of READ_ONLY_HOST, which read the site's content, members, tags and
 *   comments through its adapters (every write of those moves the content version); of the
 *   isolate's own, none with an effect besides the output (EFFECTS: {logger});
 * - plugins and modifiers that read the clock or a random source with no time given (VARYING)
 *   are refused; date_format and pg_dateformat, which read it only for a relative date ("now",
 *   "+1 day"), are allowed: such a date is the render's time, at most `seconds` old;
 * - of the request, only `$smarty.get`, `.post`, `.request` (a GET has no body) and `.session`
 *   (its member, which is in the key): `$smarty.server` (headers, the address) and `$smarty.now`
 *   are refused.
 *
 * The site refuses to load when an endpoint asks for a cache that its function cannot have: one
 * line naming the endpoint and the first reason (checkEndpointCaches). The function's file is
 * read again at each request, so a miss checks the function it runs (cacheRefusal, remembered
 * per source text) and does not keep the answer of one that stopped being a pure read.
 */
import { compile } from '../../index.js';
import type { SiteConfig } from '../config.js';
import { SiteConfigError } from '../config.js';
import { endpointPath } from './endpoints.js';

/** Host plugins that only read the site's own rows. */
export const READ_ONLY_HOST: ReadonlySet<string> = new Set([
  'api_method',
  'assign_topics_detail',
  'assign_topics_category_list',
  'assign_csv_table',
  'child_site',
  'assign_member_detail',
  'assign_group_nm',
  'assign_tag_category_list',
  'assign_tag_list',
  'assign_relation_tag_list',
  'assign_new_comment_list',
  'assign_favorite_cnt',
  'assign_my_favorite_cnt',
]);

/** Plugins of the isolate with an effect besides their output: a kept answer would skip it. */
const EFFECTS: ReadonlySet<string> = new Set(['logger']);

/** Plugins and modifiers (not of the host) whose output is the clock's or a random source's without a time given. */
export const VARYING: ReadonlySet<string> = new Set([
  'date',
  'strtodate',
  'strtotime',
  'pg_dateformat2',
  'uuid',
  'lottery',
  'mt_rand',
  'shuffle',
  'password_hash',
  'math',
]);

/** What of the request a cached function may read: the rest varies with the caller's headers. */
const REQUEST_PARTS: ReadonlySet<string> = new Set(['get', 'post', 'request', 'session']);

export interface FunctionSources {
  templates: (name: string) => string | undefined;
  functions: (name: string) => string | undefined;
}

/** Why the function `name` (its source `source`) may not be cached, or null when it may. */
export function cacheRefusal(name: string, source: string, sources: FunctionSources): string | null {
  const r = compile(source, { name, templates: sources.templates, functions: sources.functions });
  const error = r.diagnostics.find((d) => d.severity === 'error');
  if (error) return `${name} does not compile (${error.code} at line ${error.line})`;
  const m = r.manifest;
  const writer = m.host.find((p) => !READ_ONLY_HOST.has(p)) ?? m.functions.find((p) => EFFECTS.has(p));
  if (writer) return `${name} calls {${writer}}, which is not a pure read`;
  const varying = [...m.functions, ...m.modifiers].find((p) => VARYING.has(p));
  if (varying) return `${name} calls ${varying}, whose output changes with the time or a random source`;
  // The code's reads of $smarty (compiler/codegen: `$.now`, `$.request("part")`).
  if (/\$\.now\b/.test(r.code)) return `${name} reads $smarty.now`;
  for (const [, part] of r.code.matchAll(/\$\.request\(([^)]*)\)/g)) {
    const literal = /^"([a-z]+)"$/.exec(part!.trim())?.[1];
    if (literal === undefined || !REQUEST_PARTS.has(literal))
      return `${name} reads $smarty.${literal ?? '[...]'}, which varies with the request's headers`;
  }
  return null;
}

/**
 * At site load: every endpoint with `cache` has a function that is a pure read, else a
 * SiteConfigError naming the first that is not.
 */
export function checkEndpointCaches(config: SiteConfig, sources: FunctionSources): void {
  for (const e of config.endpoints) {
    if (!e.cache) continue;
    const name = `functions/${e.function}.tpl`;
    const source = sources.functions(e.function);
    const why = source === undefined ? `${name} does not exist` : cacheRefusal(name, source, sources);
    if (why) throw new SiteConfigError(`site.json: endpoint ${endpointPath(e)} cannot have a cache: ${why}`);
  }
}

/** cacheRefusal remembered per function source (the last few): a miss checks the function it ran. */
export class CacheRuleMemo {
  private readonly seen = new Map<string, string | null>();

  constructor(private readonly keep = 32) {}

  refusal(name: string, source: string, sources: FunctionSources): string | null {
    const key = `${name}\0${source}`;
    if (this.seen.has(key)) return this.seen.get(key)!;
    const why = cacheRefusal(name, source, sources);
    if (this.seen.size >= this.keep) this.seen.delete(this.seen.keys().next().value!);
    this.seen.set(key, why);
    return why;
  }
}
