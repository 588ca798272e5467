/**
 * One request to an endpoint of the site's API, from outside (`smartcage serve`) or from a
 * template ({api_internal}): its custom function functions/<function>.tpl runs in the sandbox, as
 * the request's member, with the request's query and body as $smarty.get / post / request, and
 * the value of its {return value=...} is the JSON answer (null without one). A template error is
 * a 500 answer naming the code, the template and the line.
 */
import { readFileSync, statSync } from 'node:fs';
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
  /** The function's text that made a rendered answer (the API cache judges it: cached-answer.ts). */
  rendered?: string;
}

export function errorAnswer(status: number, code: string, message: string): EndpointAnswer {
  return { status, body: JSON.stringify({ errors: [{ code, message }] }) };
}

/** $smarty.session of a render for `memberId`: what a logged-in request shows of its member. */
export function sessionVars(memberId: number | null): Record<string, unknown> {
  return memberId === null ? {} : { member_id: memberId };
}

/** Header names seen, with their $smarty.server name: a server meets the same few on every request. */
const serverNames = new Map<string, string>();
/** Past this many distinct names (a client making them up), new ones are not remembered. */
const SERVER_NAMES_KEPT = 512;

/** $smarty.server's name of a request header: `X-Foo` is HTTP_X_FOO. */
export function headerVar(name: string): string {
  let v = serverNames.get(name);
  if (v === undefined) {
    v = `HTTP_${name.toUpperCase().replace(/-/g, '_')}`;
    if (serverNames.size < SERVER_NAMES_KEPT) serverNames.set(name, v);
  }
  return v;
}

/** $smarty.server names of request headers: `X-Foo` is HTTP_X_FOO. */
export function headerVars(headers: Iterable<[string, string]>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of headers) out[headerVar(name)] = value;
  return out;
}

/** A function's source as last read, and the file's identity then (inode, size, times). */
interface ReadSource {
  stamp: string;
  source: string;
}

/** Per site: each function's source as last read. An edit shows at the next request, as before. */
const functionSources = new WeakMap<SiteContext, Map<string, ReadSource>>();

/**
 * A file whose times are this recent may change again without its times moving (the kernel
 * stamps files from a clock that ticks every few ms; FAT by 2 s): it is read at every request
 * until it is older. Git's "racily clean" entries, the same rule.
 */
const SETTLE_MS = 2000;

/**
 * functions/<name>.tpl, read again only when its stat changed: one stat a request instead of an
 * open, a read and a close and the text decoded again (D212). A file rewritten in place changes its
 * mtime and ctime, one replaced by a rename its inode; one changed within SETTLE_MS of now is not
 * remembered at all.
 */
function readFunction(ctx: SiteContext, name: string): string | undefined {
  const file = path.join(ctx.dir, 'functions', `${name}.tpl`);
  let known = functionSources.get(ctx);
  if (!known) functionSources.set(ctx, (known = new Map()));
  const st = statSync(file, { throwIfNoEntry: false });
  if (!st?.isFile()) {
    known.delete(name);
    return undefined;
  }
  const stamp = `${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
  const had = known.get(name);
  if (had?.stamp === stamp) return had.source;
  let source: string;
  try {
    source = readFileSync(file, 'utf8');
  } catch {
    known.delete(name);
    return undefined;
  }
  if (Date.now() - Math.max(st.mtimeMs, st.ctimeMs) > SETTLE_MS) known.set(name, { stamp, source });
  else known.delete(name);
  return source;
}

export async function runEndpoint(
  ctx: SiteContext,
  endpoint: EndpointConfig,
  req: EndpointRequest,
): Promise<EndpointAnswer> {
  const name = `functions/${endpoint.function}.tpl`;
  const source = readFunction(ctx, endpoint.function);
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
    return { status: 200, body: r.returnJson ?? JSON.stringify(r.returnValue ?? null), rendered: source };
  } catch (e) {
    if (!(e instanceof TemplateError)) throw e;
    const where = e.line > 0 ? `${e.template}:${e.line}: ` : `${e.template}: `;
    return errorAnswer(500, e.code, where + e.message);
  }
}
