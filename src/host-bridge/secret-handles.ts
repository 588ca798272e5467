/**
 * Secret values never enter the isolate. {secret var=s key=NAME} assigns a handle, a string
 * like `[secret:NAME:3f9a...]` with 128 random bits issued for this render only; printing it
 * shows the handle, not the value. The host swaps a handle for its value only inside the
 * attributes whose rule allows it (for example an `api` header to one of the hosts the secret
 * lists), and redacts values from every message that leaves the bridge.
 */
import { randomBytes } from 'node:crypto';
import type { SecretRecord } from './host.js';
import { BridgeError } from './errors.js';

const HANDLE = /\[secret:([A-Za-z0-9_.-]{1,128}):([0-9a-f]{32})\]/g;

export class SecretHandles {
  private readonly byNonce = new Map<string, { name: string; record: SecretRecord }>();

  issue(name: string, record: SecretRecord): string {
    const nonce = randomBytes(16).toString('hex');
    this.byNonce.set(nonce, { name, record });
    return `[secret:${name}:${nonce}]`;
  }

  /** True when the text holds a handle issued in this render. */
  contains(text: string): boolean {
    for (const m of text.matchAll(HANDLE)) if (this.byNonce.has(m[2])) return true;
    return false;
  }

  /**
   * Replaces the handles in `text` with their values, when `allowed(record)` says this use is
   * allowed; otherwise E_SECRET_DENIED naming the secret (never its value).
   */
  substitute(text: string, use: string, allowed: (record: SecretRecord) => boolean): string {
    return text.replace(HANDLE, (whole, name: string, nonce: string) => {
      const entry = this.byNonce.get(nonce);
      if (!entry || entry.name !== name) return whole; // not issued here: plain text
      if (!allowed(entry.record)) throw new BridgeError('E_SECRET_DENIED', `the secret ${name} may not be used in ${use}`);
      return entry.record.value;
    });
  }

  /** Any secret value issued in this render, replaced by its name. */
  redact(text: string): string {
    let out = text;
    for (const { name, record } of this.byNonce.values()) {
      if (record.value.length >= 4) out = out.split(record.value).join(`[secret ${name}]`);
    }
    return out;
  }
}
