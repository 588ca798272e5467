/**
 * The per-tenant sliding window of mail sending (docs/security.md ML-05), kept by the host: at most
 * `messages` mails and `recipients` envelope recipients per tenant in any `windowMs` (one hour
 * by default). Attempts count, delivered or not, so failing sends cannot be used to hammer the
 * relay either. A refusal is E_RATE_LIMIT.
 */
import { BridgeError } from '../../host-api/errors.js';

export interface SendWindowOptions {
  messages?: number;
  recipients?: number;
  windowMs?: number;
  now?: () => number;
}

export class SendWindow {
  readonly messages: number;
  readonly recipients: number;
  readonly windowMs: number;
  private readonly now: () => number;
  private readonly byTenant = new Map<string, { at: number; recipients: number }[]>();

  constructor(opts: SendWindowOptions = {}) {
    this.messages = opts.messages ?? 200;
    this.recipients = opts.recipients ?? 2000;
    this.windowMs = opts.windowMs ?? 3_600_000;
    this.now = opts.now ?? Date.now;
  }

  /** Counts one mail with `recipients` recipients for `tenant`, or refuses with E_RATE_LIMIT. */
  take(tenant: string, recipients: number): void {
    const now = this.now();
    const since = now - this.windowMs;
    const list = (this.byTenant.get(tenant) ?? []).filter((e) => e.at > since);
    const used = list.reduce((n, e) => n + e.recipients, 0);
    if (list.length + 1 > this.messages) {
      this.byTenant.set(tenant, list);
      throw new BridgeError(
        'E_RATE_LIMIT',
        `the site may send at most ${this.messages} mails per ${Math.round(this.windowMs / 60000)} minutes`,
      );
    }
    if (used + recipients > this.recipients) {
      this.byTenant.set(tenant, list);
      throw new BridgeError(
        'E_RATE_LIMIT',
        `the site may mail at most ${this.recipients} recipients per ${Math.round(this.windowMs / 60000)} minutes`,
      );
    }
    list.push({ at: now, recipients });
    this.byTenant.set(tenant, list);
  }

  /** Mails counted for `tenant` in the current window. */
  used(tenant: string): number {
    const since = this.now() - this.windowMs;
    return (this.byTenant.get(tenant) ?? []).filter((e) => e.at > since).length;
  }
}
