/**
 * One request to an endpoint of the site's API, from outside (`smartcage serve`) or from a
 * template ({api_internal}): its custom function functions/<function>.tpl runs in the sandbox, as
 * the request's member, with the request's query and body as $smarty.get / post / request, and
 * the value of its {return value=...} is the JSON answer (null without one). A template error is
 * a 500 answer naming the code, the template and the line.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { TemplateError, type RenderIdentity } from '../../index.js';
import type { EndpointConfig } from '../config.js';
import type { SiteContext } from '../site-context.js';
import { siteIdentity } from '../identity.js';

export interface EndpointRequest {
  /** The request, begun in ctx.requests by the caller (its cookie jar and what it serves). */
  requestId: string;
  memberId: number | null;
  /** How deep the request nests (0 from outside): which of the site's engines renders it. */
  depth: number;
  context?: RenderIdentity['context'];
  get: Record<string, unknown>;
  post: Record<string, unknown> | unknown[];
  /** $smarty.server: request line and headers as PHP names them (REQUEST_METHOD, HTTP_HOST...). */
  server: Record<string, string>;
}

export interface EndpointAnswer {
  status: number;
  body: string;
}

export function errorAnswer(status: number, code: string, message: string): EndpointAnswer {
  return { status, body: JSON.stringify({ errors: [{ code, message }] }) };
}

/** $smarty.session of a render for `memberId`: what a logged-in request shows of its member. */
export function sessionVars(memberId: number | null): Record<string, unknown> {
  return memberId === null ? {} : { member_id: memberId };
}

/** $smarty.server names of request headers: `X-Foo` is HTTP_X_FOO. */
export function headerVars(headers: Iterable<[string, string]>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of headers) out[`HTTP_${name.toUpperCase().replace(/-/g, '_')}`] = value;
  return out;
}

function readFunction(dir: string, name: string): string | undefined {
  try {
    return readFileSync(path.join(dir, 'functions', `${name}.tpl`), 'utf8');
  } catch {
    return undefined;
  }
}

export async function runEndpoint(
  ctx: SiteContext,
  endpoint: EndpointConfig,
  req: EndpointRequest,
): Promise<EndpointAnswer> {
  const name = `functions/${endpoint.function}.tpl`;
  const source = readFunction(ctx.dir, endpoint.function);
  if (source === undefined) return errorAnswer(500, 'function_not_found', `${name} does not exist`);
  // $smarty.request is get and post merged; a JSON list body merges by its indexes.
  const postEntries = Array.isArray(req.post) ? Object.fromEntries(req.post.map((v, i) => [String(i), v])) : req.post;
  try {
    const r = await ctx.engines.at(req.depth).render(source, {
      name,
      identity: siteIdentity(ctx.config, { memberId: req.memberId, requestId: req.requestId, context: req.context }),
      request: {
        get: req.get,
        post: req.post,
        request: { ...req.get, ...postEntries },
        session: sessionVars(req.memberId),
        server: { ...req.server, HTTP_RCMS_X_API_REQUEST_CNT: String(req.depth + 1) },
      },
      returnJson: true,
    });
    return { status: 200, body: r.returnJson ?? JSON.stringify(r.returnValue ?? null) };
  } catch (e) {
    if (!(e instanceof TemplateError)) throw e;
    const where = e.line > 0 ? `${e.template}:${e.line}: ` : `${e.template}: `;
    return errorAnswer(500, e.code, where + e.message);
  }
}
