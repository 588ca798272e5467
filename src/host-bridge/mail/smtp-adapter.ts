/**
 * The default host's mail adapter: delivers {sendmail} mails to an SMTP relay the host names
 * (never one a template names), with the per-tenant sending window.
 *
 *   host: { mail: smtpMailAdapter({ host: '127.0.0.1', port: 25, verifiedDomains: { shop: ['shop.example'] } }) }
 */
import type { MailAdapter, OutgoingMail } from '../host.js';
import { buildMessage } from './message.js';
import { sendSmtp, type SmtpOptions } from './smtp-client.js';
import { SendWindow } from './rate.js';

export interface SmtpMailAdapterOptions extends SmtpOptions {
  /** The tenant's verified sender domains: a table by tenant, or a function. */
  verifiedDomains: Readonly<Record<string, readonly string[]>> | ((tenant: string) => readonly string[] | Promise<readonly string[]>);
  /**
   * The envelope sender (MAIL FROM, where bounces go). Default: the mail's From address, which
   * the plugin has already limited to a verified domain.
   */
  returnPath?: (tenant: string, mail: OutgoingMail) => string;
  /** Right-hand side of generated Message-IDs (default: the EHLO name, or "localhost"). */
  messageIdDomain?: string;
  /**
   * Header that carries sg_custom_args as a JSON object (default "X-Custom-Args"; null: not sent).
   * Non-ASCII characters are \u-escaped, so the header stays ASCII.
   */
  customArgsHeader?: string | null;
  /** The per-tenant sending window; false: none (the embedder limits elsewhere). */
  window?: SendWindow | false;
  /** Passed through: see MailAdapter. */
  defaultSender?: MailAdapter['defaultSender'];
  memberAddresses?: MailAdapter['memberAddresses'];
  renderTemplate?: MailAdapter['renderTemplate'];
  /** Clock for the Date header (ms). */
  now?: () => number;
}

/** JSON with every non-ASCII character \u-escaped and ", " between members (fold points). */
function asciiJson(obj: Record<string, string>): string {
  const parts = Object.entries(obj).map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}`);
  return `{${parts.join(', ')}}`.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export function smtpMailAdapter(opts: SmtpMailAdapterOptions): MailAdapter {
  const window = opts.window === false ? null : (opts.window ?? new SendWindow());
  const headerName = opts.customArgsHeader === undefined ? 'X-Custom-Args' : opts.customArgsHeader;
  const domains = opts.verifiedDomains;
  const adapter: MailAdapter = {
    async verifiedDomains(tenant) {
      if (typeof domains === 'function') return domains(tenant);
      return Object.prototype.hasOwnProperty.call(domains, tenant) ? domains[tenant] : [];
    },
    async send(tenant, mail) {
      const recipients = [...mail.to, ...mail.cc, ...mail.bcc];
      window?.take(tenant, recipients.length);
      const args = mail.customArgs && Object.keys(mail.customArgs).length ? mail.customArgs : null;
      const message = buildMessage({
        from: { address: mail.from, name: mail.fromName },
        to: mail.to,
        cc: mail.cc,
        subject: mail.subject,
        body: mail.body,
        date: (opts.now ?? Date.now)(),
        messageIdDomain: opts.messageIdDomain ?? opts.heloName ?? 'localhost',
        extraHeaders: args && headerName ? [[headerName, asciiJson(args)]] : [],
      });
      await sendSmtp(opts, { from: opts.returnPath ? opts.returnPath(tenant, mail) : mail.from, to: recipients }, message);
    },
  };
  if (opts.defaultSender) adapter.defaultSender = opts.defaultSender;
  if (opts.memberAddresses) adapter.memberAddresses = opts.memberAddresses;
  if (opts.renderTemplate) adapter.renderTemplate = opts.renderTemplate;
  return adapter;
}
