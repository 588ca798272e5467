/**
 * The one bridge between an isolate and its host, as data: a privileged plugin's tag (or a host
 * modifier) calls the host function with the plugin's name and its attributes as JSON text
 * (values encoded by ./transfer.ts), and gets a `HostAnswer` back as JSON text. The isolate end is
 * src/runtime/host-call.ts, the host end src/bridge/bridge.ts; neither trusts the other's
 * text, and the host checks every attribute again.
 */
import type { AnswerTransfer, Transfer } from './transfer.js';
import type { ErrorCode } from './error-codes.js';
import type { LogLine } from './log.js';

/** What the isolate asks the host to run: a privileged tag, or a host modifier (`{$ip|getCountryFromIP}`). */
type HostCallKind = 'tag' | 'modifier';

/**
 * One call, as data. On the wire the kind is the host function's first argument and the rest its
 * second, as JSON (two strings cross isolated-vm cheaply); the bridge reads both as untrusted.
 */
type HostCall =
  | { kind: 'tag'; name: string; attrs: Record<string, Transfer> }
  | { kind: 'modifier'; name: string; input: Transfer; args: Transfer[] };

/** The JSON the host function's second argument holds for a call of `kind`. */
export type HostRequest<K extends HostCallKind> = Omit<Extract<HostCall, { kind: K }>, 'kind'>;

/**
 * Inside the isolate: the host function, called synchronously: with isolated-vm's applySyncPromise
 * on the async path, with applySync in the synchronous slice (docs/decisions.md D268).
 */
export type HostFunction = (kind: HostCallKind, request: string) => string;

/** On the host: answers one call: its kind and JSON request in (untrusted, so plain strings), JSON `HostAnswer` out. */
export type HostCallHandler = (kind: string, request: string) => Promise<string>;

/**
 * On the host: the calls of a render in the synchronous slice, answered at once (the bridge's
 * `answersNow`): only reads, from adapters that answer on this thread. A call it cannot answer at
 * once is answered E_SLICE_YIELD, and the render runs again asynchronously.
 */
export interface HostCallsNow {
  call(kind: string, request: string): string;
  /** The slice was cut: the render starts again from the start, so what its calls counted is forgotten. */
  restart(): void;
}

/** A tag's answer: variables to assign, text to print, a block's items, log lines. */
export interface TagAnswer {
  ok: true;
  assign?: [string, AnswerTransfer][];
  /** For block plugins: the variable each item is assigned to, and the items. */
  iterate?: { var: string; items: AnswerTransfer[] };
  output?: string;
  log?: LogLine[];
}

/** A host modifier's answer: its result. */
export interface ModifierAnswer {
  ok: true;
  value: Transfer;
}

/** Any call's failure: one of our codes and a message that names nothing of the host. */
export interface FailedAnswer {
  ok: false;
  error: { code: ErrorCode; message: string };
}

export type HostAnswer = TagAnswer | ModifierAnswer | FailedAnswer;
