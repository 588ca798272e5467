/**
 * What {api_internal} and {api_mng} share: a request to the site's own public or management
 * API through HostAdapters.internalApi, always for the render's tenant (BR-14: the adapter
 * scopes every request to `identity.tenant`; ids of another tenant are its "not found").
 *
 * Acting member (spec, Authentication; docs/security.md BR-01..03):
 *  - member_id never names a super user (members.isSuperUser): E_IDENTITY_DENIED; without the
 *    members capability the check cannot be made, so member_id is refused (fail closed);
 *  - member_id with direct, or with use_current_session: E_BAD_COMBINATION;
 *  - direct only when the endpoint is defined with GET (internalApi.endpointMethod) and the
 *    call's method is GET: E_BAD_COMBINATION, an unknown endpoint E_NOT_FOUND;
 *  - member_id only as a numeric literal unless the render runs for a super user: the compiler
 *    records the literals in the manifest and the bridge refuses any other value before this
 *    runs (bridge.ts, checkIdentityAttrs); the checks above hold for every value, literal or not.
 *
 * Secrets never go to the internal APIs: a handle anywhere is E_SECRET_DENIED. A failure of the
 * request itself sets status_var=0; refusals of the adapter (BridgeError) stay errors.
 */
import type { BridgeCall, HostResult } from '../plugin-contract.js';
import { BridgeError } from '../../host-api/errors.js';
import { PhpArray, type Value } from '../../value/value.js';
import { decodeBoundedJson } from '../decoded-values.js';
import { ResponseCache } from '../response-cache.js';
import { buildQuery, chargeRequest, keysContain, mapStrings, parseHeaderList, refuseLongQueries } from './common.js';
import { missingAdapter } from '../../host-api/capabilities.js';

const BAD_PATH = /[\u0000-\u0020\u007f\\#]|(^|\/)\.\.?(\/|$)|^\/\//;

function checkEndpoint(plugin: string, endpoint: string): { path: string; query: string } {
  if (!endpoint.startsWith('/') || BAD_PATH.test(endpoint) || endpoint.length > 2048) {
    throw new BridgeError(
      'E_BAD_ATTRIBUTE',
      `{${plugin}} endpoint= must be a path like /rcms-api/1/topics (${JSON.stringify(endpoint.slice(0, 80))})`,
    );
  }
  const q = endpoint.indexOf('?');
  return q < 0 ? { path: endpoint, query: '' } : { path: endpoint.slice(0, q), query: endpoint.slice(q + 1) };
}

function denySecrets(plugin: string, call: BridgeCall, values: Value[]): void {
  const deny = (s: string): string => call.secrets.substitute(s, `{${plugin}}`, () => false);
  for (const v of values) {
    mapStrings(v, deny);
    if (keysContain(v, (k) => call.secrets.contains(k)))
      throw new BridgeError('E_SECRET_DENIED', `a secret may not be used in {${plugin}}`);
  }
}

export async function requestInternal(
  plugin: 'api_internal' | 'api_mng',
  attrs: Record<string, Value>,
  call: BridgeCall,
): Promise<HostResult> {
  const adapter = call.host.internalApi;
  if (!adapter) throw missingAdapter(`{${plugin}}`, 'internalApi');
  if (plugin === 'api_mng' && attrs.files instanceof PhpArray && attrs.files.size > 0)
    throw new BridgeError('E_NOT_IMPLEMENTED', '{api_mng} files is not supported yet');
  const tenant = call.identity.tenant;
  const endpoint = String(attrs.endpoint);
  refuseLongQueries(plugin, attrs.queries ?? null);
  denySecrets(plugin, call, [endpoint, attrs.query ?? null, attrs.queries ?? null, attrs.headers ?? null]);
  const { path, query: inPath } = checkEndpoint(plugin, endpoint);
  const method = attrs.method === 'POST' ? 'POST' : 'GET';
  const memberId = typeof attrs.member_id === 'number' ? attrs.member_id : null;
  const direct = plugin === 'api_internal' && attrs.direct === true;
  const useCurrentSession = attrs.use_current_session === true;

  if (memberId !== null && direct)
    throw new BridgeError('E_BAD_COMBINATION', `{${plugin}} member_id cannot be combined with direct`);
  if (memberId !== null && useCurrentSession)
    throw new BridgeError('E_BAD_COMBINATION', `{${plugin}} member_id cannot be combined with use_current_session`);
  if (memberId !== null) {
    if (!call.host.members)
      throw new BridgeError('E_IDENTITY_DENIED', `{${plugin}} member_id cannot be checked on this host`);
    if (await call.host.members.isSuperUser(memberId))
      throw new BridgeError('E_IDENTITY_DENIED', `{${plugin}} cannot act as a super user (member_id=${memberId})`);
  }
  if (direct) {
    const defined = await adapter.endpointMethod(path);
    if (defined === null)
      throw new BridgeError('E_NOT_FOUND', `{${plugin}} no endpoint ${JSON.stringify(path.slice(0, 80))}`);
    if (defined !== 'GET' || method !== 'GET')
      throw new BridgeError('E_BAD_COMBINATION', `{${plugin}} direct is only allowed for GET endpoints`);
  }

  const headers = parseHeaderList(plugin, attrs.headers);
  if (plugin === 'api_mng' && !headers.some(([n]) => n.toLowerCase() === 'accept'))
    headers.push(['Accept', 'application/json']);
  const query = buildQuery(
    [inPath, typeof attrs.query === 'string' ? attrs.query : ''].filter((s) => s !== '').join('&'),
    attrs.queries ?? null,
  );

  const cacheMinutes = typeof attrs.cache_time === 'number' ? attrs.cache_time : 0;
  // Not with use_current_session: the session may change within a render ({login}), so the
  // render's identity does not tell one member's answer from another's.
  const cacheable = cacheMinutes > 0 && method === 'GET' && memberId === null && !direct && !useCurrentSession;
  const key = cacheable
    ? ResponseCache.key(tenant, [
        plugin,
        call.identity.memberId,
        path,
        query,
        headers.map(([n, v]) => [n.toLowerCase(), v]).sort(),
      ])
    : '';
  let answer: { status: number; body: string } | undefined = cacheable
    ? call.state.internalCache.get(tenant, key)
    : undefined;
  if (!answer) {
    chargeRequest(call, plugin);
    try {
      answer = await adapter.request({
        endpoint: path,
        requestId: call.identity.requestId,
        method,
        query,
        headers,
        actAs: memberId,
        direct,
        useCurrentSession,
        kind: plugin === 'api_mng' ? 'management' : 'api',
      });
    } catch (e) {
      if (e instanceof BridgeError) throw e;
      return {
        assign: typeof attrs.status_var === 'string' ? [[attrs.status_var, 0]] : [],
        log: [{ level: 'warning', message: `{${plugin}} request to ${JSON.stringify(path.slice(0, 80))} failed` }],
      };
    }
    if (cacheable && answer.status >= 200 && answer.status < 300) {
      call.state.internalCache.set(
        tenant,
        key,
        { bytes: answer.body.length * 2 + 256, status: answer.status, body: answer.body },
        cacheMinutes * 60_000,
      );
    }
  }
  const assign: [string, Value][] = [];
  if (typeof attrs.var === 'string') {
    // Bounded before it is decoded on this thread (D340).
    const body = typeof answer.body === 'string' ? decodeBoundedJson(answer.body, "the internal API's answer") : null;
    assign.push([attrs.var, body]);
  }
  if (typeof attrs.status_var === 'string')
    assign.push([attrs.status_var, answer.status >= 200 && answer.status < 300 ? 1 : 0]);
  return { assign };
}
