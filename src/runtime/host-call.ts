/**
 * Privileged plugins run on the host. In the isolate, their tags call the one bridge function
 * the host installed; the host validates everything again (nothing here is trusted), runs the
 * plugin, and answers with variables to assign, text to print, or an error.
 *
 * The host installs two: the async path's (applySyncPromise: the host may answer through a
 * promise) and the synchronous slice's (applySync: isolated-vm allows no promise there). The host
 * tells each render which to use (`useHostNow`, D268); it checks again on its side that a call
 * made at once belongs to a render it started in a slice. Answered E_SLICE_YIELD there, the render
 * is cut (RenderState.yieldSlice) and runs again on the async path.
 */
import {
  MAX_REQUEST_VALUES,
  checkTransferSize,
  decodeAnswer,
  decodeValue,
  encodeValue,
  type Transfer,
} from '../protocol/transfer.js';
import type { HostAnswer, HostFunction, HostRequest, ModifierAnswer, TagAnswer } from '../protocol/host-call.js';
import type { Value } from '../value/value.js';
import type { RenderState } from './render-state.js';
import type { ModifierPlugin } from '../plugins/types.js';
import { setOwn } from '../value/set-own.js';

/** Captured once at bootstrap; the globals they came from are deleted before any template runs. */
let hostFunction: HostFunction | null = null;
let hostNowFunction: HostFunction | null = null;
/** The render running in the synchronous slice with the host's calls answered at once, or null. */
let slicing: RenderState | null = null;

export function installHost(fn: HostFunction, now: HostFunction): void {
  if (hostFunction) throw new Error('host already installed');
  hostFunction = fn;
  hostNowFunction = now;
}

/** Which host function the render `$` calls: the slice's (`$`), or the async path's (null). */
export function useHostNow($: RenderState | null): void {
  slicing = $;
}

/** One call through the host function this render uses; a call the slice could not answer cuts it. */
function hostAnswer(kind: 'tag' | 'modifier', request: string): HostAnswer {
  const inSlice = slicing;
  const fn = inSlice ? hostNowFunction : hostFunction;
  const answer = JSON.parse(fn!(kind, request)) as HostAnswer;
  if (inSlice && !answer.ok && answer.error.code === 'E_SLICE_YIELD') inSlice.yieldSlice();
  return answer;
}

class HostError extends Error {
  constructor(
    /** The code the host answered with, as sent: the host checks it when the render's error reaches it (src/engine.ts). */
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

function ask(plugin: string, attrs: Record<string, Value>, $: RenderState): TagAnswer {
  if (!hostFunction) throw new HostError('E_NO_HOST', `{${plugin}} needs a host, and this sandbox has none`);
  const encoded: Record<string, Transfer> = {};
  // An attribute named after an Object.prototype member is a key like any other (setOwn).
  for (const k of Object.keys(attrs)) setOwn(encoded, k, encodeValue(attrs[k]));
  checkTransferSize(Object.values(encoded), `{${plugin}}`, MAX_REQUEST_VALUES);
  const answer = hostAnswer('tag', JSON.stringify({ name: plugin, attrs: encoded } satisfies HostRequest<'tag'>));
  if (!answer.ok) throw new HostError(answer.error.code, answer.error.message);
  const tag = answer as TagAnswer;
  for (const l of tag.log ?? []) $.log(l.level, l.message);
  for (const [name, value] of tag.assign ?? []) $.assign(name, decodeAnswer(value));
  return tag;
}

export function callHost(plugin: string, attrs: Record<string, Value>, $: RenderState): string {
  return ask(plugin, attrs, $).output ?? '';
}

/** A block plugin: the items the body iterates over, and the variable that receives each. */
export function callHostBlock(
  plugin: string,
  attrs: Record<string, Value>,
  $: RenderState,
): { name: string; items: Value[] } {
  const answer = ask(plugin, attrs, $);
  if (!answer.iterate) return { name: '', items: [] };
  return { name: answer.iterate.var, items: answer.iterate.items.map((t) => decodeAnswer(t)) };
}

/**
 * A host modifier, for one value (the runtime maps over arrays before this, as for every
 * modifier): the host checks the input and arguments again and answers with the result.
 */
export function callHostModifier(name: string, input: Value, args: Value[]): Value {
  if (!hostFunction) throw new HostError('E_NO_HOST', `the modifier ${name} needs a host, and this sandbox has none`);
  const values = [encodeValue(input), ...args.map((a) => encodeValue(a))];
  checkTransferSize(values, `the modifier ${name}`, MAX_REQUEST_VALUES);
  const request = JSON.stringify({ name, input: values[0]!, args: values.slice(1) } satisfies HostRequest<'modifier'>);
  const answer = hostAnswer('modifier', request);
  if (!answer.ok) throw new HostError(answer.error.code, answer.error.message);
  return decodeValue((answer as ModifierAnswer).value ?? null);
}

/**
 * An engine's own modifier as the isolate holds it: a name and a call of the host, no parameters
 * (so no defaults filled in here: the host fills them from the declaration it keeps). Frozen, as
 * the lockdown freezes the built-in declarations.
 */
export function hostOnlyModifier(name: string): ModifierPlugin {
  return Object.freeze({
    kind: 'modifier',
    name,
    summary: '',
    examples: Object.freeze([]),
    params: Object.freeze([]),
    origin: 'platform',
    run: (input: Value, args: Value[]) => callHostModifier(name, input, args),
  });
}
