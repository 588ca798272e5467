/**
 * A render on a site as one request from outside (`smartcage render --site`, and tests): the
 * request is begun with the cookies it came with, its member is the one named or else its
 * session cookie's, and when it ends its response's cookies (a {login}, {logout}, {cookie}) are
 * handed back.
 */
import { randomUUID } from 'node:crypto';
import type { RenderIdentity, RenderResult } from '../index.js';
import type { SiteContext } from './site-context.js';
import { newJar, type OutgoingCookie } from './requests.js';
import { currentMember } from './adapters/sessions.js';
import { siteIdentity } from './identity.js';
import { sessionVars } from './api/run-endpoint.js';

/** What a request brings besides its member: $smarty.get / post / server, extra $smarty.session values, and the cookie jar. */
export interface SiteRequestData {
  get?: Record<string, unknown>;
  post?: Record<string, unknown>;
  server?: Record<string, unknown>;
  /** Further $smarty.session values; member_id is always the render's member. */
  session?: Record<string, unknown>;
  /** Cookies the browser sent, name -> value. */
  cookies?: Record<string, string>;
}

export interface SiteRenderOptions {
  name: string;
  /** Template variables, as RenderOptions.vars (JSON text keeps PHP's key order). */
  vars?: Record<string, unknown> | string;
  objects?: boolean;
  /** The member the render runs for; absent: the member of the session cookie, if any. */
  memberId?: number | null;
  context?: RenderIdentity['context'];
  request?: SiteRequestData;
}

export interface SiteRenderResult extends RenderResult {
  /** The render's member (named, or its session's). */
  memberId: number | null;
  /** The cookies the response sets, by name. */
  setCookies: Map<string, OutgoingCookie>;
}

export async function renderOnSite(
  ctx: SiteContext,
  source: string,
  opts: SiteRenderOptions,
): Promise<SiteRenderResult> {
  const requestId = `render-${randomUUID()}`;
  const data = opts.request ?? {};
  const state = ctx.requests.begin(requestId, { jar: newJar(Object.entries(data.cookies ?? {})) });
  try {
    const memberId = opts.memberId !== undefined ? opts.memberId : await currentMember(ctx, state.jar);
    const session: Record<string, unknown> = { ...data.session };
    delete session.member_id;
    const get = data.get ?? {};
    const post = data.post ?? {};
    const result = await ctx.engines.at(0).render(source, {
      name: opts.name,
      vars: opts.vars,
      objects: opts.objects,
      identity: siteIdentity(ctx.config, { memberId, context: opts.context, requestId }),
      request: {
        get,
        post,
        request: { ...get, ...post },
        session: { ...session, ...sessionVars(memberId) },
        server: serverVars(opts.request),
      },
    });
    return { ...result, memberId, setCookies: state.jar.outgoing };
  } finally {
    ctx.requests.end(requestId);
  }
}

/**
 * $smarty.server of a render given a request: REQUEST_METHOD is POST when it has a body (`post`)
 * and GET otherwise, as a web server would set it, unless `server` says it (D144).
 */
function serverVars(request: SiteRequestData | undefined): Record<string, unknown> {
  if (request === undefined) return {};
  return { REQUEST_METHOD: request.post !== undefined ? 'POST' : 'GET', ...request.server };
}
