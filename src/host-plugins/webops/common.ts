/**
 * Shared by the operations over HTTP: one request to an endpoint the template gave or the site
 * configured, through the egress guard, with the configured endpoint's token as a bearer token
 * when it has one (only when its secret's `hosts` list the endpoint's origin), counted against the
 * render's request cap of the api family, never waiting past the render's wall time.
 */
import type { BridgeCall } from '../plugin-contract.js';
import type { EgressResponse } from '../../host-adapters/egress/guard.js';
import type { ConfiguredEndpoint } from '../../host-api/adapters/webops.js';
import { BridgeError } from '../../host-api/errors.js';
import { missingAdapter } from '../../host-api/capabilities.js';
import { chargeRequest, failureReason, hostAllows } from '../api/common.js';

/** Seconds one operation request may take at most (less when the render has less left). */
const OPERATION_TIMEOUT_MS = 30_000;

/** The answer, or the reason a request failed on the way (refusals are thrown). */
export type Sent = { res: EgressResponse } | { failed: string };

export async function send(
  call: BridgeCall,
  plugin: string,
  endpoint: ConfiguredEndpoint,
  method: string,
  extra: [string, string][] = [],
): Promise<Sent> {
  const http = call.host.http;
  if (!http) throw missingAdapter(`{${plugin}}`, 'http');
  const shown = JSON.stringify(endpoint.url.length > 120 ? `${endpoint.url.slice(0, 120)}...` : endpoint.url);
  let url: URL;
  try {
    url = new URL(endpoint.url);
  } catch {
    throw new BridgeError('E_BAD_URL', `{${plugin}} not a URL: ${shown}`);
  }
  const headers = [...extra];
  const secretHeaders: string[] = [];
  if (endpoint.tokenSecret !== undefined) {
    const record = call.host.secrets ? await call.host.secrets.get(endpoint.tokenSecret) : null;
    if (!record)
      throw new BridgeError(
        'E_SECRET_NOT_FOUND',
        `{${plugin}} no secret named ${JSON.stringify(endpoint.tokenSecret)}`,
      );
    if (!hostAllows(record, url))
      throw new BridgeError(
        'E_SECRET_DENIED',
        `{${plugin}} the secret ${endpoint.tokenSecret} may not be sent to ${url.protocol}//${url.hostname}`,
      );
    headers.push(['Authorization', `Bearer ${record.value}`]);
    secretHeaders.push('Authorization');
  }
  const left = call.timeLeft();
  if (left <= 50) throw new BridgeError('E_WALL_TIMEOUT', `{${plugin}} no time left in the render for a request`);
  chargeRequest(call, plugin);
  try {
    const res = await http.fetch({
      method,
      url: endpoint.url,
      headers,
      timeoutMs: Math.min(OPERATION_TIMEOUT_MS, left - 50),
      secretHeaders,
    });
    return { res };
  } catch (e) {
    return { failed: `${failureReason(e, plugin, shown)}: ${shown}` };
  }
}
