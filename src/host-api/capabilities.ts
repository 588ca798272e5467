/**
 * Which capabilities (a declaration's `host` field) a host answers. Most name the HostAdapters
 * field their plugins call (files, http, mail, secrets...), so a host has them when the embedder
 * gave that adapter; the bridge itself keeps the clock ({sleep}) and the request's globals
 * ({assign_globals}), and the embedder's own plugins keep theirs, so every host has those three.
 * A capability may also name an optional method of a field's adapter (`members.member`): a host
 * has it when that adapter has the method. It answers for a family: some uses of a plugin need a
 * second adapter or method too ({storage_url}: storageUrls; api_internal's member_id: members;
 * assign_member_detail: members.groups).
 */
import type { HostAdapters } from './host.js';
import { BridgeError } from './errors.js';

/**
 * The capability of an engine's own plugin that names no adapter (createEngine({ plugins })):
 * the embedder's code brings what it needs, so every host has it.
 */
export const ENGINE_CAPABILITY = 'engine';

const KEPT_BY_THE_BRIDGE: ReadonlySet<string> = new Set(['clock', 'request', ENGINE_CAPABILITY]);

/** The methods of an adapter, optional ones included (`members.member`). */
type MethodsOf<A> = { [M in keyof A]-?: NonNullable<A[M]> extends (...args: never[]) => unknown ? M : never }[keyof A] &
  string;

/**
 * What a declaration's `host` may name: a HostAdapters field, a field and one of its adapter's
 * methods, or a capability the bridge keeps itself. Checked by the typecheck, not split at run time.
 */
export type HostCapability =
  | 'clock'
  | 'request'
  | typeof ENGINE_CAPABILITY
  | { [F in keyof HostAdapters]-?: F | `${F}.${MethodsOf<NonNullable<HostAdapters[F]>>}` }[keyof HostAdapters];

/** The adapter a plugin of capability `C` is handed by the bridge: present, with the method the capability names. */
export type AdapterOf<C> = C extends `${infer F extends keyof HostAdapters}.${infer M}`
  ? NonNullable<HostAdapters[F]> & Required<Pick<NonNullable<HostAdapters[F]>, M & keyof NonNullable<HostAdapters[F]>>>
  : C extends keyof HostAdapters
    ? NonNullable<HostAdapters[C]>
    : undefined;

/**
 * The adapter a capability names, resolved once per call by the bridge (undefined for one the
 * bridge keeps), or the missingAdapter refusal: plugins are handed it and check nothing.
 */
export function adapterFor(host: HostAdapters, capability: string, what: string): unknown {
  if (KEPT_BY_THE_BRIDGE.has(capability)) return undefined;
  if (!hostProvides(host, capability)) throw missingAdapter(what, capability);
  const dot = capability.indexOf('.');
  return host[(dot < 0 ? capability : capability.slice(0, dot)) as keyof HostAdapters];
}

export function hostProvides(host: HostAdapters, capability: string): boolean {
  if (KEPT_BY_THE_BRIDGE.has(capability)) return true;
  const [field, method] = capability.split('.', 2) as [string, string | undefined];
  if (!Object.prototype.hasOwnProperty.call(host, field)) return false;
  const adapter = host[field as keyof HostAdapters];
  if (adapter === undefined) return false;
  return method === undefined || typeof (adapter as unknown as Record<string, unknown>)[method] === 'function';
}

/**
 * The one refusal for a missing adapter, whichever plugin meets it: says what to pass. `adapter`
 * is a HostAdapters field, or a field and its optional method (`mail.memberAddresses`).
 */
export function missingAdapter(what: string, adapter: string): BridgeError {
  const field = adapter.split('.')[0];
  return new BridgeError(
    'E_HOST_CAPABILITY',
    `${what} needs the host adapter HostAdapters.${adapter}, which this host was not given (createEngine({ host: { ${field} } }))`,
  );
}

/**
 * The adapter `host[field]` when it has every one of `methods` (optional methods of a family's
 * adapter), else the missingAdapter refusal naming the first that is missing (`members.member`).
 */
export function adapterWith<F extends keyof HostAdapters, K extends keyof NonNullable<HostAdapters[F]>>(
  host: HostAdapters,
  field: F,
  what: string,
  methods: readonly K[],
): NonNullable<HostAdapters[F]> & Required<Pick<NonNullable<HostAdapters[F]>, K>> {
  const adapter = host[field];
  if (!adapter) throw missingAdapter(what, field);
  const has = adapter as unknown as Record<string, unknown>;
  for (const m of methods)
    if (typeof has[String(m)] !== 'function') throw missingAdapter(what, `${field}.${String(m)}`);
  return adapter as NonNullable<HostAdapters[F]> & Required<Pick<NonNullable<HostAdapters[F]>, K>>;
}
