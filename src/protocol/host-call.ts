/**
 * The one bridge between an isolate and its host, as data: a privileged plugin's tag (or a host
 * modifier) calls the host function with the plugin's name and its attributes as JSON text
 * (values encoded by ./transfer.ts), and gets a `HostAnswer` back as JSON text. The isolate end is
 * src/runtime/host-call.ts, the host end src/host-bridge/bridge.ts; neither trusts the other's
 * text, and the host checks every attribute again.
 */
import type { Transfer } from './transfer.js';

/** Inside the isolate: the host function, called synchronously (isolated-vm's applySyncPromise). */
export type HostFunction = (plugin: string, request: string) => string;

/** On the host: answers one call: plugin name and JSON request in, JSON `HostAnswer` out. */
export type HostCallHandler = (plugin: string, request: string) => Promise<string>;

export interface HostAnswer {
  assign?: [string, Transfer][];
  /** For block plugins: the variable each item is assigned to, and the items. */
  iterate?: { var: string; items: Transfer[] };
  output?: string;
  log?: { level: 'info' | 'warning' | 'error'; message: string }[];
  error?: { code: string; message: string };
  /** For host modifiers: the modifier's result. */
  value?: Transfer;
}

/** A host modifier's request: the value left of the `|`, then the arguments. */
export interface HostModifierRequest {
  input: Transfer;
  args: Transfer[];
}

/** Host modifiers share the one bridge function with plugins; this prefix tells them apart (`|getCountryFromIP`). */
export const HOST_MODIFIER_PREFIX = '|';
