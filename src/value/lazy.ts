/**
 * A value built on first use. Every isolate runs the whole runtime, so a table built at load
 * (entity names, Unicode property names) sits in every tenant's heap even when no render of that
 * tenant needs it; built on first use, it is there only for the tenants that do.
 */
export function lazy<T>(build: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= build());
}
