/** Where the site's API answers: `/rcms-api/<api_id>/<path>`, one endpoint of site.json each. */
import type { EndpointConfig, SiteConfig } from '../config.js';

const API_PREFIX = '/rcms-api/';

/** The endpoint a path names (without its query), or null. */
export function findEndpoint(config: SiteConfig, urlPath: string): EndpointConfig | null {
  const m = /^\/rcms-api\/(\d{1,9})\/([a-z0-9][a-z0-9_-]{0,62})\/?$/.exec(urlPath);
  if (!m) return null;
  const apiId = Number(m[1]);
  return config.endpoints.find((e) => e.api_id === apiId && e.path === m[2]) ?? null;
}

/** How a request names the endpoints it is serving: a call into one of them is a recursion. */
export function endpointKey(e: EndpointConfig): string {
  return `${e.api_id}/${e.path}`;
}

export function endpointPath(e: EndpointConfig): string {
  return `${API_PREFIX}${endpointKey(e)}`;
}
