/**
 * {assign_globals}: values shared by the renders of one request, kept in the embedding process
 * between those renders, so every one of them is counted and bounded.
 *
 * Decisions:
 *  - A value is kept as its transfer text (the JSON of encodeValue, what the bridge sends anyway),
 *    and that text's length is its size: cheap, deterministic, and close to what it holds in
 *    memory (a decoded tree of arrays would be several times larger and hard to measure).
 *    Sizes are UTF-16 units, like the output limit; each key and each request adds a fixed
 *    overhead, so that many tiny entries or empty requests are not free.
 *  - Three caps: per request, per tenant (all its requests together) and per process. A store
 *    past any of them is refused with E_QUOTA at the template's line; nothing is evicted, since
 *    evicting would let one tenant drop another tenant's values.
 *  - Lifetime: the embedder says when a request ended (Engine.endRequest); a render without a
 *    request id of the embedder's is a request of its own and its values go when it ends. A
 *    request the embedder never ends goes after `idleMs` without use (default 60 s: a request
 *    runs seconds, and until then its values count against the caps).
 *  - Reads never create a request's record; only a store does.
 */
import { decodeValue, encodeValue } from '../protocol/transfer.js';
import type { Value } from '../value/value.js';
import { BridgeError } from '../host-api/errors.js';

/** One render's view of the values kept for its request ({assign_globals}): its own tenant and request only. */
export interface RequestScope {
  get(key: string): Value;
  set(key: string, value: Value): void;
  delete(key: string): void;
  clear(): void;
}

export interface RequestGlobalsOptions {
  /** Characters one request may hold (values, keys and overheads). */
  maxRequestChars: number;
  /** Characters all requests of one tenant may hold together. */
  maxTenantChars: number;
  /** Characters the whole process may hold. */
  maxTotalChars: number;
  /** Keys per request. */
  maxKeys: number;
  /** A request not used for this long is dropped, ms. */
  idleMs: number;
  /** Clock, for tests. */
  now?: () => number;
}

export const DEFAULT_REQUEST_GLOBALS: RequestGlobalsOptions = {
  maxRequestChars: 1024 * 1024,
  maxTenantChars: 8 * 1024 * 1024,
  maxTotalChars: 64 * 1024 * 1024,
  maxKeys: 1000,
  idleMs: 60_000,
};

/** What a request's record costs beyond its entries (the record, its map, its key). */
export const REQUEST_OVERHEAD = 512;
/** What an entry costs beyond its key and value text. */
export const ENTRY_OVERHEAD = 64;

interface RequestRecord {
  tenant: string;
  values: Map<string, string>;
  chars: number;
  touched: number;
}

export class RequestGlobals {
  private readonly opts: RequestGlobalsOptions;
  /** Least recently used first: a record is moved to the end whenever it is used. */
  private readonly requests = new Map<string, RequestRecord>();
  private readonly tenants = new Map<string, number>();
  private total = 0;
  private sweeper: NodeJS.Timeout | null = null;

  constructor(opts: Partial<RequestGlobalsOptions> = {}) {
    this.opts = { ...DEFAULT_REQUEST_GLOBALS, ...opts };
  }

  private now(): number {
    return this.opts.now ? this.opts.now() : Date.now();
  }

  scope(tenant: string, requestId: string): RequestScope {
    const key = `${tenant}\0${requestId}`;
    return {
      get: (k) => this.get(key, k),
      set: (k, v) => this.set(key, tenant, k, v),
      delete: (k) => this.remove(key, k),
      clear: () => this.drop(key),
    };
  }

  /** The request ended: its values go now. */
  endRequest(tenant: string, requestId: string): void {
    this.drop(`${tenant}\0${requestId}`);
  }

  /** Characters held: by one tenant, or by the whole process. */
  usage(tenant?: string): number {
    this.sweep();
    return tenant === undefined ? this.total : (this.tenants.get(tenant) ?? 0);
  }

  /** Requests holding values. */
  get size(): number {
    this.sweep();
    return this.requests.size;
  }

  /** Drops the requests idle for longer than idleMs (the oldest are first in the map). */
  sweep(): void {
    const limit = this.now() - this.opts.idleMs;
    for (const [key, r] of this.requests) {
      if (r.touched > limit) break;
      this.drop(key);
    }
  }

  private use(key: string): RequestRecord | undefined {
    this.sweep();
    const r = this.requests.get(key);
    if (r) {
      r.touched = this.now();
      this.requests.delete(key);
      this.requests.set(key, r);
    }
    return r;
  }

  private get(key: string, k: string): Value {
    const text = this.use(key)?.values.get(k);
    return text === undefined ? null : decodeValue(JSON.parse(text));
  }

  private set(key: string, tenant: string, k: string, value: Value): void {
    const text = JSON.stringify(encodeValue(value));
    const r = this.use(key);
    const old = r?.values.get(k);
    if (r && old === undefined && r.values.size >= this.opts.maxKeys) {
      throw new BridgeError('E_QUOTA', `{assign_globals} holds at most ${this.opts.maxKeys} keys per request`);
    }
    const cost = k.length + text.length + ENTRY_OVERHEAD;
    const delta = cost - (old === undefined ? 0 : k.length + old.length + ENTRY_OVERHEAD) + (r ? 0 : REQUEST_OVERHEAD);
    const requestChars = (r?.chars ?? 0) + delta;
    if (requestChars > this.opts.maxRequestChars) {
      throw new BridgeError(
        'E_QUOTA',
        `{assign_globals} values of one request may hold at most ${this.opts.maxRequestChars} characters (this one: ${text.length})`,
      );
    }
    const tenantChars = (this.tenants.get(tenant) ?? 0) + delta;
    if (delta > 0 && tenantChars > this.opts.maxTenantChars) {
      throw new BridgeError(
        'E_QUOTA',
        `{assign_globals} values of all this site's requests in progress may hold at most ${this.opts.maxTenantChars} characters`,
      );
    }
    if (delta > 0 && this.total + delta > this.opts.maxTotalChars) {
      throw new BridgeError('E_QUOTA', '{assign_globals}: the host holds too many values right now; try again later');
    }
    const rec = r ?? { tenant, values: new Map<string, string>(), chars: 0, touched: this.now() };
    if (!r) this.requests.set(key, rec);
    rec.values.set(k, text);
    rec.chars = requestChars;
    this.tenants.set(tenant, tenantChars);
    this.total += delta;
    this.sweeper ??= setInterval(() => this.tick(), Math.max(1000, this.opts.idleMs / 2)).unref();
  }

  private remove(key: string, k: string): void {
    const r = this.use(key);
    const old = r?.values.get(k);
    if (!r || old === undefined) return;
    r.values.delete(k);
    const freed = k.length + old.length + ENTRY_OVERHEAD;
    r.chars -= freed;
    this.release(r.tenant, freed);
  }

  private drop(key: string): void {
    const r = this.requests.get(key);
    if (!r) return;
    this.requests.delete(key);
    this.release(r.tenant, r.chars);
  }

  private release(tenant: string, chars: number): void {
    this.total -= chars;
    const left = (this.tenants.get(tenant) ?? 0) - chars;
    if (left > 0) this.tenants.set(tenant, left);
    else this.tenants.delete(tenant);
  }

  private tick(): void {
    this.sweep();
    if (this.requests.size === 0 && this.sweeper) {
      clearInterval(this.sweeper);
      this.sweeper = null;
    }
  }
}
