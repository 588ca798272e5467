/**
 * The default host's mail adapter: delivers {sendmail} mails to an SMTP relay the host names
 * (never one a template names) through nodemailer's SMTP transport (connection pooling,
 * STARTTLS, AUTH), with the per-tenant sending window.
 *
 *   const smtp = smtpMailAdapter({ host: '127.0.0.1', port: 25, verifiedDomains: { shop: ['shop.example'] } });
 *   host: (identity) => ({ mail: smtp.forTenant(identity.tenant) })
 *
 * One relay connection (pool) and one sending window serve every tenant; `forTenant` gives the
 * MailAdapter of one, which sends for that tenant only.
 *
 * The message itself is built here (message.ts) and handed to nodemailer as raw bytes with an
 * explicit envelope, so the headers are exactly the ones the builder writes and checks (docs/
 * security.md ML-01): nodemailer only carries them. Nothing a template writes reaches an SMTP
 * command but the canonical addresses, re-parsed below before the transport sees them, so neither
 * the EHLO name nor any ESMTP parameter is template-controlled (ML-04).
 */
import { createTransport, type Transporter } from 'nodemailer';
import type { ConnectionOptions } from 'node:tls';
import type { MailAdapter, OutgoingMail } from '../../host-api/host.js';
import { currentRenderSignal } from '../../host-api/render-signal.js';
import { buildMessage, newMessageId } from './message.js';
import { parseAddress } from './address.js';
import { SendWindow } from './rate.js';

export interface SmtpOptions {
  host: string;
  port: number;
  /** The EHLO name: a host name or address literal fixed by the host (default "localhost"). */
  heloName?: string;
  /**
   * none: plain, never upgraded (a local relay); opportunistic: STARTTLS when the server offers
   * it; starttls: STARTTLS, and fail when the server does not offer it; tls: implicit TLS.
   * Default: none without auth, starttls with auth.
   */
  security?: 'none' | 'opportunistic' | 'starttls' | 'tls';
  /** TLS options (ca, servername, rejectUnauthorized...). */
  tls?: ConnectionOptions;
  /** Credentials (AUTH PLAIN or LOGIN, as the server offers); refused without TLS unless allowPlainAuth. */
  auth?: { user: string; pass: string };
  allowPlainAuth?: boolean;
  /** Keep up to `pool` connections open and reuse them (default: one connection per message). */
  pool?: number;
  /** Connect and greeting timeout, and the idle time allowed on an open connection (ms). */
  connectTimeoutMs?: number;
  commandTimeoutMs?: number;
}

export interface SmtpMailAdapterOptions extends SmtpOptions {
  /** The tenant's verified sender domains: a table by tenant, or a function. */
  verifiedDomains:
    Readonly<Record<string, readonly string[]>> | ((tenant: string) => readonly string[] | Promise<readonly string[]>);
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
  /** Clock for the Date header (ms). */
  now?: () => number;
}

/** What one delivery produced: the Message-ID it carried and the relay's answer (for logs, never for templates). */
export interface SmtpDelivery {
  messageId: string;
  response: string;
}

/** A mail sender over one relay: `deliver` sends one mail, `close` ends pooled connections. */
export interface SmtpSender {
  deliver(tenant: string, mail: OutgoingMail): Promise<SmtpDelivery>;
  close(): void;
}

/** A refused configuration or envelope (before anything is sent). */
export class SmtpConfigError extends Error {}

/**
 * The relay refused some recipients and took the mail for the others (nodemailer sends DATA
 * when at least one RCPT was accepted): a failed delivery for {sendmail}, though some got it.
 */
export class SmtpPartialError extends Error {
  constructor(
    readonly rejected: readonly string[],
    readonly delivery: SmtpDelivery,
  ) {
    super(
      `the relay refused ${rejected.length} recipient(s): ${rejected.join(', ').slice(0, 200)}; the others were sent the mail`,
    );
  }
}

const HELO_NAME =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*|\[[0-9A-Fa-f:.]{2,45}\])$/;

/** JSON with every non-ASCII character \u-escaped and ", " between members (fold points). */
function asciiJson(obj: Record<string, string>): string {
  const parts = Object.entries(obj).map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}`);
  return `{${parts.join(', ')}}`.replace(
    /[\u007f-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** The address if it is already canonical; anything else never reaches an SMTP command. */
function canonical(address: string): string {
  const r = parseAddress(address);
  if (!r.ok || r.address !== address)
    throw new SmtpConfigError(`not a canonical envelope address: ${JSON.stringify(address.slice(0, 80))}`);
  return address;
}

function transport(opts: SmtpOptions): Transporter {
  const heloName = opts.heloName ?? 'localhost';
  if (!HELO_NAME.test(heloName) || heloName.length > 255)
    throw new SmtpConfigError(`not a host name for EHLO: ${JSON.stringify(heloName.slice(0, 80))}`);
  const security = opts.security ?? (opts.auth ? 'starttls' : 'none');
  if (opts.auth && (security === 'none' || security === 'opportunistic') && !opts.allowPlainAuth) {
    throw new SmtpConfigError(
      'refusing to send SMTP credentials without TLS (security starttls or tls, or allowPlainAuth)',
    );
  }
  const timeout = opts.commandTimeoutMs ?? 30_000;
  return createTransport({
    host: opts.host,
    port: opts.port,
    name: heloName,
    secure: security === 'tls',
    requireTLS: security === 'starttls',
    ignoreTLS: security === 'none',
    tls: opts.tls,
    auth: opts.auth,
    connectionTimeout: opts.connectTimeoutMs ?? 10_000,
    greetingTimeout: opts.connectTimeoutMs ?? 10_000,
    socketTimeout: timeout,
    dnsTimeout: opts.connectTimeoutMs ?? 10_000,
    // No files, no URLs: the message is raw bytes built here.
    disableFileAccess: true,
    disableUrlAccess: true,
    logger: false,
    ...(opts.pool ? { pool: true, maxConnections: opts.pool } : {}),
  });
}

/** Delivery over one relay, without the MailAdapter's window and look-ups (the local site's adapter wraps it). */
export function smtpSender(opts: Omit<SmtpMailAdapterOptions, 'verifiedDomains' | 'window'>): SmtpSender {
  const mailer = transport(opts);
  const headerName = opts.customArgsHeader === undefined ? 'X-Custom-Args' : opts.customArgsHeader;
  return {
    async deliver(tenant, mail) {
      const args = mail.customArgs && Object.keys(mail.customArgs).length ? mail.customArgs : null;
      const messageId = newMessageId(opts.messageIdDomain ?? opts.heloName ?? 'localhost');
      const message = buildMessage({
        from: { address: mail.from, name: mail.fromName },
        to: mail.to,
        cc: mail.cc,
        subject: mail.subject,
        body: mail.body,
        date: (opts.now ?? Date.now)(),
        messageId,
        extraHeaders: args && headerName ? [[headerName, asciiJson(args)]] : [],
      });
      const from = canonical(opts.returnPath ? opts.returnPath(tenant, mail) : mail.from);
      const to = [...mail.to, ...mail.cc, ...mail.bcc].map(canonical);
      if (to.length === 0) throw new SmtpConfigError('no recipients');
      // The render's signal (D152, decisions.md D338): a render that ended (its wall clock, a cancel,
      // its engine closing) before the relay took the message closes the connection, so no mail
      // goes for a render that already reported its error.
      const signal = currentRenderSignal();
      const info = (await mailer.sendMail({ envelope: { from, to }, raw: message, ...(signal ? { signal } : {}) })) as {
        response?: unknown;
        rejected?: unknown;
      };
      const delivery = { messageId, response: String(info.response ?? '').slice(0, 200) };
      const rejected = Array.isArray(info.rejected) ? info.rejected.map(String) : [];
      if (rejected.length) throw new SmtpPartialError(rejected, delivery);
      return delivery;
    },
    close: () => mailer.close(),
  };
}

/** The optional MailAdapter methods a tenant's adapter takes from its embedder (see MailAdapter). */
export type MailExtras = Pick<MailAdapter, 'defaultSender' | 'memberAddresses' | 'renderTemplate'>;

/** The relay and window shared by every tenant; `forTenant` is one tenant's MailAdapter. */
export interface SmtpMail {
  forTenant(tenant: string, extras?: MailExtras): MailAdapter;
  close(): void;
}

export function smtpMailAdapter(opts: SmtpMailAdapterOptions): SmtpMail {
  const window = opts.window === false ? null : (opts.window ?? new SendWindow());
  const sender = smtpSender(opts);
  const domains = opts.verifiedDomains;
  return {
    forTenant(tenant, extras = {}) {
      const adapter: MailAdapter = {
        async verifiedDomains() {
          if (typeof domains === 'function') return domains(tenant);
          return Object.prototype.hasOwnProperty.call(domains, tenant) ? domains[tenant] : [];
        },
        async send(mail) {
          window?.take(tenant, mail.to.length + mail.cc.length + mail.bcc.length);
          await sender.deliver(tenant, mail);
        },
      };
      if (extras.defaultSender) adapter.defaultSender = extras.defaultSender;
      if (extras.memberAddresses) adapter.memberAddresses = extras.memberAddresses;
      if (extras.renderTemplate) adapter.renderTemplate = extras.renderTemplate;
      return adapter;
    },
    close: () => sender.close(),
  };
}
