/**
 * The limits every render runs under, and the error codes a breach produces
 * (docs/security.md, threat model point 2).
 */
export interface SandboxLimits {
  /** CPU time of template code per render, ms (isolated-vm timeout: host calls do not count). */
  cpuMs: number;
  /** Wall-clock deadline of the whole render including host calls and sleeps, ms (host watchdog). */
  wallMs: number;
  /** Largest output, in UTF-16 code units, checked inside the isolate before it is copied out. */
  maxOutputChars: number;
  /** Largest error message that crosses out of the isolate. */
  maxErrorChars: number;
  /** Host calls (bridge) per render. */
  maxHostCalls: number;
  /** Total time a render may spend in {sleep}, ms. */
  maxSleepMs: number;
  /** Largest template source accepted by the compiler, bytes (each included template and custom function too). */
  maxTemplateBytes: number;
  /**
   * Largest compiled script, characters (E_TEMPLATE_TOO_LARGE): a sandbox worker loads a
   * template's script before it renders anything, and a giant one held it, and every tenant on it, for most of a second.
   */
  maxCodeChars: number;
  /** Time one compile may take on the compile thread, ms (E_TEMPLATE_TOO_LARGE past it). */
  compileMs: number;
  /**
   * With workers: 0, a template that cannot call the host first renders synchronously for at
   * most this long, ms, then asynchronously from the start if it did not finish
   * (src/sandbox/sync-slice.ts, docs/decisions.md D140). 0: never; at most 20.
   */
  syncSliceMs: number;
}

export const DEFAULT_LIMITS: SandboxLimits = {
  cpuMs: 1000,
  wallMs: 5000,
  maxOutputChars: 16 * 1024 * 1024,
  maxErrorChars: 4096,
  maxHostCalls: 1000,
  maxSleepMs: 3000,
  maxTemplateBytes: 1024 * 1024,
  maxCodeChars: 4 * 1024 * 1024,
  compileMs: 10_000,
  syncSliceMs: 2,
};
