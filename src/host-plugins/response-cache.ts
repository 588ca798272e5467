/**
 * The response cache of {api} and {api_internal}, kept per engine (host-state.ts). In a file of
 * its own: the engine's host state holds it, and the plugins' contract holds the host state, so
 * it may not sit among the plugins that import that contract.
 */
import { createHash } from 'node:crypto';

/**
 * A small in-memory response cache (NET-13): entries are keyed by a hash of the tenant and
 * everything that shapes the answer, so tenants never share entries; sizes are capped per
 * tenant and overall, oldest first out.
 */
export class ResponseCache<T extends { bytes: number }> {
  private readonly entries = new Map<string, { tenant: string; expires: number; value: T }>();
  private readonly perTenant = new Map<string, number>();
  private total = 0;

  constructor(
    private readonly maxTenantBytes = 4 * 1024 * 1024,
    private readonly maxTotalBytes = 64 * 1024 * 1024,
    private readonly maxEntryBytes = 1024 * 1024,
  ) {}

  static key(tenant: string, parts: unknown[]): string {
    return createHash('sha256')
      .update(JSON.stringify([tenant, ...parts]))
      .digest('hex');
  }

  get(tenant: string, key: string, now = Date.now()): T | undefined {
    const e = this.entries.get(key);
    if (!e || e.tenant !== tenant) return undefined;
    if (e.expires <= now) {
      this.remove(key);
      return undefined;
    }
    return e.value;
  }

  set(tenant: string, key: string, value: T, ttlMs: number, now = Date.now()): void {
    if (ttlMs <= 0 || value.bytes > this.maxEntryBytes) return;
    this.remove(key);
    this.entries.set(key, { tenant, expires: now + ttlMs, value });
    this.total += value.bytes;
    this.perTenant.set(tenant, (this.perTenant.get(tenant) ?? 0) + value.bytes);
    for (const [k, e] of this.entries) {
      if (this.total <= this.maxTotalBytes && (this.perTenant.get(tenant) ?? 0) <= this.maxTenantBytes) break;
      if (e.tenant === tenant || this.total > this.maxTotalBytes || e.expires <= now) this.remove(k);
    }
  }

  clear(): void {
    this.entries.clear();
    this.perTenant.clear();
    this.total = 0;
  }

  private remove(key: string): void {
    const e = this.entries.get(key);
    if (!e) return;
    this.entries.delete(key);
    this.total -= e.value.bytes;
    const left = (this.perTenant.get(e.tenant) ?? 0) - e.value.bytes;
    if (left > 0) this.perTenant.set(e.tenant, left);
    else this.perTenant.delete(e.tenant);
  }
}
