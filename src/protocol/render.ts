/**
 * What crosses into an isolate for a render and what comes back: a compiled template (defined
 * once per context), a render request (plain data, structured-cloned), and the response the
 * runtime builds (src/runtime/isolate-entry.ts) and the host reads (src/sandbox/isolate-host.ts,
 * and through a worker, src/sandbox/worker-protocol.ts). The response is untrusted on arrival.
 */
import type { SiteSettings } from '../plugins/types.js';
import type { LogLine } from './log.js';
import type { RenderVars } from './vars.js';

export interface CompiledTemplate {
  /** Key the script registers the template under. */
  id: string;
  code: string;
  /** Script name, which the isolate's stack traces use (never a host path). */
  filename: string;
  /**
   * The code calls no host plugin (the compiler's `manifest.host` is empty), so a sandbox worker
   * may render it synchronously (src/sandbox/isolate-host.ts). Absent: it may call the host.
   */
  hostFree?: boolean;
}

export interface RenderRequest {
  templateName: string;
  now: number;
  site: SiteSettings;
  validate: boolean;
  maxIncludeDepth: number;
  /** 16 random bytes from the host for the render's generator. */
  seed: readonly number[];
  /** The variables and how they are encoded (./vars.ts). */
  vars: RenderVars;
  request?: Record<string, unknown>;
  constants?: Record<string, unknown>;
  /** The output limit (characters); loops check it as they go (src/compiler/codegen/loop.ts). */
  maxOutputChars: number;
  maxErrorChars: number;
  /** Answer the value of {return} as JSON text (`RenderResponse.returnJson`) instead of as data. */
  returnJson?: boolean;
}

export interface RenderResponse {
  output?: string;
  warnings?: string[];
  /** For each warning, the position slot when it was raised (see `at` below; 0: none). Untrusted like the rest. */
  warningsAt?: number[];
  logs?: LogLine[];
  /** For each log line, the position slot when it was written (as `warningsAt`). */
  logsAt?: number[];
  returnValue?: unknown;
  /**
   * With `RenderRequest.returnJson`: JSON.stringify of what `returnValue` would have been, made in
   * the isolate (then `returnValue` is absent). Untrusted text, like `output`.
   */
  returnJson?: string;
  /** CPU time the render's code used in the isolate, ms: set by the host side (src/sandbox/isolate-host.ts), not the isolate. */
  cpuMs?: number;
  /**
   * `at`: the value of the position slot when the render stopped: a 1-based index into the
   * template's line table, for an error whose stack names no template line and for limits
   * enforced from outside the isolate (CPU and wall time, memory); absent when none was recorded.
   */
  error?: { code: string; message: string; stack: string; at?: number };
  /** The render changed what the lockdown does not freeze: the host replaces the context. */
  contextTainted?: boolean;
  /**
   * A render in a synchronous slice whose output was too long to copy out within it
   * (src/sandbox/sync-slice.ts): nothing else is set, and the host renders again asynchronously.
   */
  overSlice?: boolean;
}

/**
 * What the runtime's `render` returns: a RenderResponse, or for a render whose answer would be
 * a short output and nothing else, that output alone (D276). A string crosses as one primitive
 * copy where an object of one field is serialized in the isolate and deserialized on the host.
 */
export type RenderAnswer = RenderResponse | string;

/** The runtime's answer as a RenderResponse: a string is the output (untrusted text, like `output`). */
export function responseOf(answer: RenderAnswer): RenderResponse {
  return typeof answer === 'string' ? { output: answer } : answer;
}
