/**
 * The two forms of EngineOptions.host as one: the adapters a render of `identity` gets, and a
 * host with some adapters replaced (tests, the security harness, a site's mail-template engine).
 */
import type { HostAdapters, HostOption, HostResolver, RenderIdentity } from './host.js';

/** The adapters of `identity`'s render: the resolver's answer, or the object every render shares. */
export function resolveHost(host: HostOption, identity: RenderIdentity): HostAdapters {
  const given = typeof host === 'function' ? host(identity) : host;
  if (!given || typeof given !== 'object') throw new Error(`the host resolver gave no adapters for ${identity.tenant}`);
  return given;
}

/** `host` with `extra` over each render's adapters (an adapter set to undefined is removed). */
export function withAdapters(host: HostOption, extra: Partial<HostAdapters>): HostResolver {
  return (identity) => ({ ...resolveHost(host, identity), ...extra });
}
