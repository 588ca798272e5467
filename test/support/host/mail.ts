/**
 * The test host's mail adapter for plugin examples and fixtures: an in-memory outbox that
 * records every mail it accepts. Tenant "default" may send from example.com; recipients at
 * undeliverable.example fail delivery (var=false); members 1 and 2 have addresses; the stored
 * message template "welcome" greets `name`.
 */
import type { HostAdapters, MailAdapter, OutgoingMail } from '../../../src/host-api/host.js';
import { SendWindow } from '../../../src/host-adapters/mail/rate.js';

interface OutboxEntry {
  tenant: string;
  mail: OutgoingMail;
}

export interface MemoryMailOptions {
  domains?: Record<string, readonly string[]>;
  members?: Record<string, Record<number, string>>;
  templates?: Record<string, (vars: Record<string, unknown>) => { subject: string; body: string }>;
  window?: SendWindow;
}

export interface MemoryMail {
  /** The MailAdapter of one tenant (all of them share the outbox and the window). */
  of(tenant: string): MailAdapter;
  /** The adapter of tenant "default" (the test renders' tenant). */
  adapter: MailAdapter;
  outbox: OutboxEntry[];
  window: SendWindow;
}

export function memoryMail(opts: MemoryMailOptions = {}): MemoryMail {
  const outbox: OutboxEntry[] = [];
  const domains = opts.domains ?? { default: ['example.com'] };
  const members = opts.members ?? { default: { 1: 'member1@example.com', 2: 'member2@example.com' } };
  const templates = opts.templates ?? {
    welcome: (v) => ({ subject: 'Welcome', body: `Hello ${String(v.name ?? '')}` }),
  };
  const window = opts.window ?? new SendWindow();
  const own = <T>(o: Record<string, T>, k: string): T | undefined =>
    Object.prototype.hasOwnProperty.call(o, k) ? o[k] : undefined;
  const of = (tenant: string): MailAdapter => ({
    async verifiedDomains() {
      return own(domains, tenant) ?? [];
    },
    async send(mail) {
      window.take(tenant, mail.to.length + mail.cc.length + mail.bcc.length);
      if ([...mail.to, ...mail.cc, ...mail.bcc].some((a) => a.endsWith('@undeliverable.example')))
        throw new Error('550 mailbox unavailable');
      outbox.push({ tenant, mail: structuredClone(mail) });
    },
    async memberAddresses(_asker, ids) {
      const table = own(members, tenant) ?? {};
      const out = new Map<number, string>();
      for (const id of ids) if (Object.prototype.hasOwnProperty.call(table, id)) out.set(id, table[id]);
      return out;
    },
    async renderTemplate(name, vars) {
      const t = own(templates, name);
      return t ? t(vars) : null;
    },
  });
  return { of, adapter: of('default'), outbox, window };
}

export function mailTestAdapter(): (tenant: string) => Partial<HostAdapters> {
  const mail = memoryMail();
  return (tenant) => ({ mail: mail.of(tenant) });
}
