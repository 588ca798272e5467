/**
 * The sessions of a local site (HostAdapters.sessions): rows of `sessions`, found through the
 * session cookie of the request's jar (requests.ts). {login} sets the cookie on the request's
 * response and in its jar, so the rest of the request (use_current_session) sees the new session
 * at once; the browser sends it with its next requests. The functions below the adapter are what
 * `smartcage serve` and `smartcage render` use to find a request's member.
 */
import { ROW_BUDGETS, type HostAdapters } from '../../index.js';
import type { SiteContext } from '../site-context.js';
import type { SqlRunner } from '../db/database.js';
import type { CookieJar } from '../requests.js';
import { hashOf, newSecret, nowSeconds } from './credentials.js';
import { lockRows, refuseAtCap } from './row-budget.js';

/** The cookie that carries the session id. */
export const SESSION_COOKIE = 'rcms_session';
/** A session started by {login} lasts a day. */
const SESSION_SECONDS = 86_400;

/** The member of a session id (a cookie's value), or null: unknown, expired, another tenant's. */
export async function memberOfSession(ctx: SiteContext, sessionId: string | undefined): Promise<number | null> {
  if (!sessionId) return null;
  const row = await ctx.db.get<{ member_id: number }>(
    'SELECT member_id FROM sessions WHERE tenant = ? AND id_hash = ? AND expires > ?',
    [ctx.tenant, hashOf(sessionId), nowSeconds()],
  );
  return row ? Number(row.member_id) : null;
}

/** The member of a session's access token (X-RCMS-API-ACCESS-TOKEN from {assign_api_credential}), or null. */
export async function memberOfAccessToken(ctx: SiteContext, token: string | undefined): Promise<number | null> {
  if (!token) return null;
  const row = await ctx.db.get<{ member_id: number }>(
    'SELECT member_id FROM sessions WHERE tenant = ? AND token_hash = ? AND expires > ?',
    [ctx.tenant, hashOf(token), nowSeconds()],
  );
  return row ? Number(row.member_id) : null;
}

/** The member of the request's current session. */
export function currentMember(ctx: SiteContext, jar: CookieJar): Promise<number | null> {
  return memberOfSession(ctx, jar.cookies.get(SESSION_COOKIE));
}

async function insertSession(tx: SqlRunner, ctx: SiteContext, memberId: number, seconds: number, withToken: boolean) {
  const now = nowSeconds();
  const sessionId = newSecret('s_');
  const accessToken = newSecret('t_');
  // Expired rows of the tenant go whenever a session is made, so the table does not grow without end.
  await tx.run('DELETE FROM sessions WHERE tenant = ? AND expires <= ?', [ctx.tenant, now]);
  // The row budget (D160): a member's oldest sessions make room; the tenant's cap refuses.
  const budget = ROW_BUDGETS.sessions;
  await lockRows(tx, ctx.db, ctx.tenant, 'sessions');
  const held = await tx.get<{ n: number | string }>('SELECT COUNT(*) AS n FROM sessions WHERE tenant = ?', [
    ctx.tenant,
  ]);
  const mine = await tx.get<{ n: number | string }>(
    'SELECT COUNT(*) AS n FROM sessions WHERE tenant = ? AND member_id = ?',
    [ctx.tenant, memberId],
  );
  const over = Number(mine?.n ?? 0) - budget.perMember.max + 1;
  if (over > 0) {
    await tx.run(
      'DELETE FROM sessions WHERE tenant = ? AND id_hash IN (SELECT id_hash FROM sessions WHERE tenant = ? AND member_id = ? ORDER BY created, id_hash LIMIT ?)',
      [ctx.tenant, ctx.tenant, memberId, over],
    );
  } else {
    refuseAtCap(budget, 'perTenant', Number(held?.n ?? 0));
  }
  await tx.run(
    'INSERT INTO sessions (tenant, id_hash, member_id, token_hash, created, expires) VALUES (?, ?, ?, ?, ?, ?)',
    [ctx.tenant, hashOf(sessionId), memberId, withToken ? hashOf(accessToken) : null, now, now + seconds],
  );
  return { sessionId, accessToken, expiresAt: now + seconds };
}

function clearCookie(jar: CookieJar): void {
  jar.cookies.delete(SESSION_COOKIE);
  jar.outgoing.set(SESSION_COOKIE, { value: '', maxAge: 0, httpOnly: true });
}

export function sessionAdapters(ctx: SiteContext): Partial<HostAdapters> {
  const endIn = (tx: SqlRunner, jar: CookieJar) => {
    const id = jar.cookies.get(SESSION_COOKIE);
    return id ? tx.run('DELETE FROM sessions WHERE tenant = ? AND id_hash = ?', [ctx.tenant, hashOf(id)]) : undefined;
  };
  return {
    sessions: {
      async current(requestId) {
        return currentMember(ctx, ctx.requests.get(requestId).jar);
      },
      async start(requestId, memberId) {
        const jar = ctx.requests.get(requestId).jar;
        const made = await ctx.db.transaction(async (tx) => {
          await endIn(tx, jar);
          return insertSession(tx, ctx, memberId, SESSION_SECONDS, false);
        });
        jar.cookies.set(SESSION_COOKIE, made.sessionId);
        jar.outgoing.set(SESSION_COOKIE, { value: made.sessionId, maxAge: SESSION_SECONDS, httpOnly: true });
      },
      async end(requestId) {
        const jar = ctx.requests.get(requestId).jar;
        if (!jar.cookies.has(SESSION_COOKIE)) return;
        await endIn(ctx.db, jar);
        clearCookie(jar);
      },
      async issue(memberId, expiresSeconds) {
        return ctx.db.transaction((tx) => insertSession(tx, ctx, memberId, expiresSeconds, true));
      },
    },
  };
}
