/**
 * What the host side of one engine keeps between renders: the {assign_globals} values of its
 * requests and the response caches of {api} and {api_internal}. Each engine makes its own
 * (createEngine) and hands it to every bridge it makes, so two engines in one process (two
 * products, two customers, each with a tenant called `default`) share no value, no cached answer
 * (D159). Nothing here is a module-level singleton.
 */
import { RequestGlobals, type RequestGlobalsOptions } from './request-globals.js';
import { ResponseCache } from '../host-plugins/response-cache.js';
import type { EgressResponse } from '../host-adapters/egress/guard.js';

/** An {api} answer kept for `cache_time`. */
export interface ApiCached {
  bytes: number;
  res: EgressResponse;
}

/** An {api_internal} answer kept for `cache_time`. */
export interface InternalCached {
  bytes: number;
  status: number;
  body: string;
}

export class HostState {
  readonly requestGlobals: RequestGlobals;
  readonly apiCache = new ResponseCache<ApiCached>();
  readonly internalCache = new ResponseCache<InternalCached>();

  constructor(opts: { requestGlobals?: Partial<RequestGlobalsOptions> } = {}) {
    this.requestGlobals = new RequestGlobals(opts.requestGlobals);
  }
}
