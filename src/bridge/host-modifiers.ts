/**
 * The host end of host modifiers (`{$ip|getCountryFromIP}`): one call per value, already
 * counted against the render's bridge quota by the bridge. The request is untrusted data:
 * the input and the arguments are checked against the modifier's declaration with the same
 * validator as plugin attributes before the implementation runs, and the answer is a value.
 */
import type { AttrSpec, FunctionPlugin, ModifierPlugin } from '../plugins/types.js';
import { decodeValue, encodeValue } from '../protocol/transfer.js';
import type { Value } from '../value/value.js';
import type { ModifierAnswer } from '../protocol/host-call.js';
import type { BridgeCall, PluginTable } from '../host-plugins/plugin-contract.js';
import { BridgeError } from '../host-api/errors.js';
import { validateAttrs } from './validate.js';
import { adapterFor } from '../host-api/capabilities.js';
import { withRenderSignal } from '../host-api/render-signal.js';

/** The declaration as the attribute validator reads it: the input first, then the parameters by name. */
const asAttrs = new WeakMap<ModifierPlugin, FunctionPlugin>();
function attrView(decl: ModifierPlugin, input: NonNullable<ModifierPlugin['input']>): FunctionPlugin {
  let view = asAttrs.get(decl);
  if (!view) {
    const attrs: Record<string, AttrSpec> = { [input.name]: { type: input.type, required: input.required ?? true } };
    for (const p of decl.params) attrs[p.name] = { type: p.type, required: p.required, default: p.default };
    view = { kind: 'function', name: decl.name, summary: decl.summary, examples: [], attrs };
    asAttrs.set(decl, view);
  }
  return view;
}

export async function answerModifier(
  name: string,
  raw: { input?: unknown; args?: unknown },
  call: BridgeCall,
  plugins: PluginTable,
): Promise<ModifierAnswer> {
  const impl = Object.prototype.hasOwnProperty.call(plugins.modifiers, name) ? plugins.modifiers[name] : undefined;
  const decl = plugins.declarations.findModifier(name);
  if (!impl || !decl || !decl.host || !decl.input)
    throw new BridgeError('E_PLUGIN_DENIED', `the modifier ${name.slice(0, 40)} is not a host modifier`);
  const adapter = adapterFor(call.host, decl.host, `the modifier ${decl.name}`);
  if (!('input' in raw) || !Array.isArray(raw.args))
    throw new BridgeError('E_BAD_ATTRIBUTE', `the modifier ${name} got a malformed call`);
  if (raw.args.length > decl.params.length)
    throw new BridgeError('E_BAD_ATTRIBUTE', `the modifier ${name} takes at most ${decl.params.length} argument(s)`);
  const attrs: Record<string, Value> = Object.create(null);
  attrs[decl.input.name] = decodeValue(raw.input);
  raw.args.forEach((a, i) => (attrs[decl.params[i]!.name] = decodeValue(a)));
  const valid = validateAttrs(attrView(decl, decl.input), attrs);
  const args = decl.params.slice(0, Math.max(raw.args.length, defaultedCount(decl))).map((p) => valid[p.name] ?? null);
  const signal = call.signal;
  const input = valid[decl.input.name] ?? null;
  return {
    ok: true,
    value: encodeValue(await withRenderSignal(signal, () => impl.run(input, args, call, adapter, signal))),
  };
}

/**
 * How many leading parameters take their default when omitted: up to the first optional one
 * without a default, as the isolate completes a call (runtime/modifiers.ts bindModifier). The
 * isolate has done it for a built-in modifier already; an engine's own modifier is completed here.
 */
function defaultedCount(decl: ModifierPlugin): number {
  const n = decl.params.findIndex((p) => p.default === undefined && !p.required);
  return n < 0 ? decl.params.length : n;
}
