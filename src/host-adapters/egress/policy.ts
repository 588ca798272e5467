/** Limits of the egress guard. Every outbound request of the host goes through one guard. */
export interface EgressPolicy {
  /** Destination ports a URL may name (default 80 and 443). */
  allowedPorts: readonly number[];
  /** Redirect hops followed per request, each re-validated like a new request (default 5). */
  maxRedirects: number;
  /** Response body cap in bytes, counted after decompression (default 10 MiB). */
  maxResponseBytes: number;
  /** Cap on response header bytes (passed to the HTTP parser) and on request header bytes (default 64 KiB). */
  maxHeaderBytes: number;
  /** Overall deadline per request, redirects included (default 30 s). */
  timeoutMs: number;
  /** Request body cap in bytes (default 10 MiB). */
  maxRequestBytes: number;
  /**
   * Test-only: addresses (exact IP strings) that count as public, e.g. '127.0.0.2' for an
   * allow-corpus server. Never set in production.
   */
  treatAsPublic?: readonly string[];
}

export const DEFAULT_EGRESS_POLICY: EgressPolicy = Object.freeze({
  allowedPorts: Object.freeze([80, 443]),
  maxRedirects: 5,
  maxResponseBytes: 10 * 1024 * 1024,
  maxHeaderBytes: 64 * 1024,
  timeoutMs: 30_000,
  maxRequestBytes: 10 * 1024 * 1024,
});

/** Defaults merged with overrides; numbers checked so a bad host configuration fails loudly. */
export function resolvePolicy(overrides: Partial<EgressPolicy> = {}): EgressPolicy {
  const p: EgressPolicy = { ...DEFAULT_EGRESS_POLICY };
  for (const [k, v] of Object.entries(overrides)) {
    if (v !== undefined) (p as unknown as Record<string, unknown>)[k] = v;
  }
  for (const port of p.allowedPorts) {
    if (!Number.isInteger(port) || port < 1 || port > 65535) throw new TypeError(`egress policy: bad port ${port}`);
  }
  for (const k of ['maxRedirects', 'maxResponseBytes', 'maxHeaderBytes', 'timeoutMs', 'maxRequestBytes'] as const) {
    const v = p[k];
    if (!Number.isSafeInteger(v) || v < 0) throw new TypeError(`egress policy: bad ${k}`);
  }
  if (p.timeoutMs === 0) throw new TypeError('egress policy: timeoutMs must be positive');
  return Object.freeze({
    ...p,
    allowedPorts: Object.freeze([...p.allowedPorts]),
    ...(p.treatAsPublic ? { treatAsPublic: Object.freeze([...p.treatAsPublic]) } : {}),
  });
}
