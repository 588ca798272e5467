/**
 * HostAdapters.internalApi of a local site: {api_internal} requests an endpoint of site.json, and
 * the site runs its custom function in this process (run-endpoint.ts) with one of its own engines,
 * one level deeper than the caller's. What it refuses, as an answer with errors (status_var=0):
 * the management API (a local site has none), an unknown endpoint (404), another method (405), a
 * recursion into an endpoint the calling request is serving and nesting past MAX_INTERNAL_DEPTH
 * (508). The member is member_id (already checked by the plugin), or with use_current_session
 * the calling request's session, whose cookie jar the request then shares (a {login} or {logout}
 * in it is the caller's); otherwise nobody. `direct` runs the same way: nothing here goes over
 * the network.
 */
import { randomUUID } from 'node:crypto';
import type { HostAdapters } from '../../index.js';
import type { SiteContext } from '../site-context.js';
import { currentMember } from './sessions.js';
import { newJar } from '../requests.js';
import { MAX_INTERNAL_DEPTH } from '../engines.js';
import { endpointKey, endpointPath, findEndpoint } from '../api/endpoints.js';
import { parseQuery } from '../api/query.js';
import { errorAnswer, headerVars, runEndpoint } from '../api/run-endpoint.js';

export function internalApi(ctx: SiteContext): NonNullable<HostAdapters['internalApi']> {
  return {
    async endpointMethod(endpoint) {
      return findEndpoint(ctx.config, endpoint)?.method ?? null;
    },
    async request(req) {
      if (req.kind === 'management') return errorAnswer(404, 'not_found', 'a local site has no management API');
      const endpoint = findEndpoint(ctx.config, req.endpoint);
      if (!endpoint) return errorAnswer(404, 'not_found', `no endpoint ${req.endpoint}`);
      if (endpoint.method !== req.method)
        return errorAnswer(405, 'method_not_allowed', `${endpointPath(endpoint)} answers ${endpoint.method} only`);
      const caller = ctx.requests.get(req.requestId);
      const key = endpointKey(endpoint);
      if (caller.serving.includes(key))
        return errorAnswer(508, 'recursion', `${endpointPath(endpoint)} is already being served by this request`);
      if (caller.depth >= MAX_INTERNAL_DEPTH)
        return errorAnswer(508, 'too_deep', `internal API requests nest at most ${MAX_INTERNAL_DEPTH} deep`);
      const memberId = req.actAs ?? (req.useCurrentSession ? await currentMember(ctx, caller.jar) : null);
      const requestId = `${req.requestId}>${randomUUID()}`;
      const depth = caller.depth + 1;
      ctx.requests.begin(requestId, {
        jar: req.useCurrentSession ? caller.jar : newJar(),
        serving: [...caller.serving, key],
        depth,
      });
      try {
        const query = parseQuery(req.query);
        // The answer only: the text it was rendered from stays here.
        const { status, body } = await runEndpoint(ctx, endpoint, {
          requestId,
          memberId,
          depth,
          get: req.method === 'GET' ? query : {},
          // {api_internal} has no body attribute: for POST its query and queries are the body.
          post: req.method === 'POST' ? query : {},
          server: {
            ...headerVars(req.headers),
            REQUEST_METHOD: req.method,
            REQUEST_URI: req.query === '' ? req.endpoint : `${req.endpoint}?${req.query}`,
            QUERY_STRING: req.method === 'GET' ? req.query : '',
          },
        });
        return { status, body };
      } finally {
        ctx.requests.end(requestId);
      }
    },
  };
}
