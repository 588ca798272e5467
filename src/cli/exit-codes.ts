/** What the CLI's exit status means. */
export const EXIT = {
  OK: 0,
  /** The template has errors (compile or render). */
  TEMPLATE_ERROR: 1,
  /** The command line was wrong. */
  USAGE: 2,
  /** A file could not be read or written (or is not the JSON it must be); `serve`: its port is in use. */
  IO: 3,
  /** The sandbox failed (timeout, memory limit, crash). */
  SANDBOX: 4,
  /** `serve` stopped with requests cut: the drain timeout passed, or a second SIGTERM/SIGINT came. */
  DRAIN_CUT: 5,
} as const;
