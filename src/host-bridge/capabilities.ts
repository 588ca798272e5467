/**
 * Which capabilities (a declaration's `host` field) a host answers. Most name the HostAdapters
 * field their plugins call (files, http, mail, secrets...), so a host has them when the embedder
 * gave that adapter; the bridge itself keeps the clock ({sleep}) and the request's globals
 * ({assign_globals}), and the embedder's own plugins keep theirs, so every host has those three. It answers for a family: some uses of a
 * plugin need a second adapter too ({storage_url}: storageUrls; api_internal's member_id: members).
 */
import type { HostAdapters } from './host.js';
import { BridgeError } from './errors.js';

/**
 * The capability of an engine's own plugin that names no adapter (createEngine({ plugins })):
 * the embedder's code brings what it needs, so every host has it.
 */
export const ENGINE_CAPABILITY = 'engine';

const KEPT_BY_THE_BRIDGE: ReadonlySet<string> = new Set(['clock', 'request', ENGINE_CAPABILITY]);

export function hostProvides(host: HostAdapters, capability: string): boolean {
  if (KEPT_BY_THE_BRIDGE.has(capability)) return true;
  return Object.prototype.hasOwnProperty.call(host, capability) && host[capability as keyof HostAdapters] !== undefined;
}

/**
 * The one refusal for a missing adapter, whichever plugin meets it: says what to pass. `adapter`
 * is a HostAdapters field, or a field and its optional method (`mail.memberAddresses`).
 */
export function missingAdapter(what: string, adapter: string): BridgeError {
  const field = adapter.split('.')[0];
  return new BridgeError('E_HOST_CAPABILITY', `${what} needs the host adapter HostAdapters.${adapter}, which this host was not given (createEngine({ host: { ${field} } }))`);
}
