/**
 * The API cache on a request's way (D236): serve-api.ts asks `cacheLookup` before it renders an
 * endpoint with `cache`, and hands the answer it made to `keepAnswer`.
 *
 * The key is the site, the endpoint, the member (anonymous or the member's id: an answer is
 * never another member's) and the query as the template reads it ($smarty.get: parsed, so
 * `%61=1` and `a=1` are one key, and in its order, since a {foreach} over it shows that order).
 * The request's credentials are checked before the cache is asked (serve-api.ts), so a hit
 * never skips them. An entry is served while it is younger than the endpoint's `seconds` and the
 * site's content version is the one it was made at (db/content-version.ts).
 *
 * Only a 200 answer that sets no cookie, of a function whose text as rendered is a pure read
 * (cache-rule.ts), is kept.
 */
import type { EndpointConfig } from '../config.js';
import type { SiteContext } from '../site-context.js';
import { siteSources } from '../folder-lookup.js';
import { CacheRuleMemo, type FunctionSources } from './cache-rule.js';
import { endpointKey } from './endpoints.js';
import type { EndpointAnswer } from './run-endpoint.js';

/** What the response says for operators: served from the cache, made and kept, or made and not kept. */
export type CacheOutcome = 'hit' | 'miss' | 'skip';

export type CacheLookup =
  { hit: true; body: string } | { hit: false; key: string; version: number; ttlMs: number; endpoint: EndpointConfig };

interface SiteRules {
  memo: CacheRuleMemo;
  sources: FunctionSources;
}
const rules = new WeakMap<SiteContext, SiteRules>();

function rulesOf(ctx: SiteContext): SiteRules {
  let r = rules.get(ctx);
  if (!r) {
    r = {
      memo: new CacheRuleMemo(),
      sources: siteSources(ctx.dir),
    };
    rules.set(ctx, r);
  }
  return r;
}

function cacheKey(site: string, endpoint: EndpointConfig, memberId: number | null, get: unknown): string {
  return `${site}\0${endpointKey(endpoint)}\0${memberId ?? '-'}\0${JSON.stringify(get)}`;
}

/** The kept answer, or what keepAnswer needs to keep the one about to be made. */
export async function cacheLookup(
  ctx: SiteContext,
  endpoint: EndpointConfig & { cache: { seconds: number } },
  memberId: number | null,
  get: unknown,
): Promise<CacheLookup> {
  // Read before the render: an answer made from rows older than a write is kept under an older version.
  const version = await ctx.contentVersion.current();
  const key = cacheKey(ctx.tenant, endpoint, memberId, get);
  const kept = ctx.apiCache.get(key, version);
  if (kept) return { hit: true, body: kept.body };
  return { hit: false, key, version, ttlMs: endpoint.cache.seconds * 1000, endpoint };
}

/**
 * Keeps `answer` when it may be kept: 'miss' when it was, 'skip' when not. The function is judged
 * on the text that made the answer (`answer.rendered`), not on its file now: an edit between the
 * render and this call must not let an answer of the old text in under the new one's rule, or the
 * reverse.
 */
export function keepAnswer(
  ctx: SiteContext,
  miss: Extract<CacheLookup, { hit: false }>,
  answer: EndpointAnswer,
  setsCookies: boolean,
): CacheOutcome {
  if (answer.status !== 200 || setsCookies || answer.rendered === undefined) return 'skip';
  const r = rulesOf(ctx);
  const name = `functions/${miss.endpoint.function}.tpl`;
  if (r.memo.refusal(name, answer.rendered, r.sources) !== null) return 'skip';
  return ctx.apiCache.set(ctx.tenant, miss.key, { body: answer.body, version: miss.version }, miss.ttlMs)
    ? 'miss'
    : 'skip';
}
