/**
 * The api family of a local site: access tokens of its APIs (HostAdapters.apiTokens, rows of
 * `api_tokens`), the request's cookie jar (HostAdapters.cookies, requests.ts) and its own API
 * (HostAdapters.internalApi, internal-api.ts). An API is one of site.json `apis`; a token is
 * issued only for an API whose security is the token's type.
 */
import { ROW_BUDGETS, type HostAdapters } from '../../index.js';
import type { SiteContext } from '../site-context.js';
import { hashOf, newSecret, nowSeconds } from './credentials.js';
import { internalApi } from './internal-api.js';
import { lockRows, refuseAtCap } from './row-budget.js';

/** Lifetimes when {api_token} gives none: a static token is an API key, kept long; a dynamic one is a login's. */
const STATIC_TOKEN_SECONDS = 2_592_000;
const DYNAMIC_TOKEN_SECONDS = 3_600;

export interface TokenInfo {
  apiId: number;
  type: 'static' | 'dynamic';
  memberId: number | null;
}

/** What an access token a request carries is: a valid token of one of the site's APIs, or null. */
export async function tokenInfo(ctx: SiteContext, token: string | undefined): Promise<TokenInfo | null> {
  if (!token) return null;
  const row = await ctx.db.get<{ api_id: number; type: string; member_id: number | null }>(
    'SELECT api_id, type, member_id FROM api_tokens WHERE tenant = ? AND token_hash = ? AND expires > ?',
    [ctx.tenant, hashOf(token), nowSeconds()],
  );
  if (!row) return null;
  return {
    apiId: Number(row.api_id),
    type: row.type === 'dynamic' ? 'dynamic' : 'static',
    memberId: row.member_id === null ? null : Number(row.member_id),
  };
}

export function apiAdapters(ctx: SiteContext): Partial<HostAdapters> {
  const tenant = ctx.tenant;
  return {
    apiTokens: {
      async issue(req) {
        const api = ctx.config.apis.find((a) => a.api_id === req.apiId);
        if (!api || api.security !== req.type) return null;
        const now = nowSeconds();
        if (req.type === 'static') {
          const kept = await ctx.db.get<{ token: string; expires: number }>(
            "SELECT token, expires FROM api_tokens WHERE tenant = ? AND api_id = ? AND type = 'static' AND expires > ? ORDER BY expires DESC LIMIT 1",
            [tenant, req.apiId, now],
          );
          if (kept) return { token: kept.token, expiresAt: Number(kept.expires) };
        }
        const token = newSecret(req.type === 'static' ? 'st_' : 'dt_');
        const expiresAt =
          now + (req.expiresSeconds ?? (req.type === 'static' ? STATIC_TOKEN_SECONDS : DYNAMIC_TOKEN_SECONDS));
        await ctx.db.transaction(async (tx) => {
          // The row budget (D160): live tokens of the tenant, counted under a lock shared by every process.
          await lockRows(tx, ctx.db, tenant, 'api_tokens');
          const held = await tx.get<{ n: number | string }>(
            'SELECT COUNT(*) AS n FROM api_tokens WHERE tenant = ? AND expires > ?',
            [tenant, now],
          );
          refuseAtCap(ROW_BUDGETS.apiTokens, 'perTenant', Number(held?.n ?? 0));
          await tx.run(
            'INSERT INTO api_tokens (tenant, token_hash, api_id, type, member_id, token, memo, created, expires) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
            [
              tenant,
              hashOf(token),
              req.apiId,
              req.type,
              req.memberId,
              req.type === 'static' ? token : null,
              req.memo,
              now,
              expiresAt,
            ],
          );
        });
        return { token, expiresAt };
      },
    },
    cookies: {
      async get(requestId, name) {
        return ctx.requests.get(requestId).jar.cookies.get(name) ?? null;
      },
      async set(requestId, name, value, expiresDays) {
        const jar = ctx.requests.get(requestId).jar;
        jar.cookies.set(name, value);
        jar.outgoing.set(name, { value, maxAge: expiresDays === null ? null : expiresDays * 86_400, httpOnly: false });
      },
    },
    internalApi: internalApi(ctx),
  };
}
