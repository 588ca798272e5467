/** What the canaries give the per-capability adapters of the harness host. */
export interface CanaryState {
  /** A scratch folder for this run (tenant roots live under it; the outside file is beside them). */
  dir: string;
  outsideFilePath: string;
  outsideFileContent: string;
  otherSecretValue: string;
  ownSecretValue: string;
  /** host:port of the loopback listeners posing as internal services. */
  listeners: { internal: string; metadata: string };
  /** Call when a canary is touched by something other than the listeners (a file read, a mail to a trap). */
  touch(what: string): void;
}
