/**
 * The outbox rows of a site (schema/outbox.ts): a row is reserved before a mail goes to the
 * relay, under a per-tenant lock that also counts the sending window, so two renders at once
 * cannot both take the window's last place, and a mail is in the outbox even when the process
 * dies while the relay has it.
 */
import { BridgeError, type OutgoingMail } from '../../index.js';
import type { SiteContext } from '../site-context.js';
import type { SqlRunner } from '../db/database.js';

export type OutboxStatus = 'sending' | 'sent' | 'failed' | 'not_sent';

export interface OutboxRow {
  id: number;
  /** Unix seconds. */
  created: number;
  from: string;
  fromName: string;
  to: string[];
  cc: string[];
  bcc: string[];
  subject: string;
  body: string;
  customArgs: Record<string, string>;
  status: OutboxStatus;
  error: string;
  messageId: string;
}

interface Stored {
  id: number | string;
  created: number | string;
  mail_from: string;
  from_name: string;
  mail_to: string;
  mail_cc: string;
  mail_bcc: string;
  subject: string;
  body: string;
  custom_args: string;
  status: OutboxStatus;
  error: string;
  message_id: string;
}

/** The window the site.json limits count over. */
const WINDOW_SECONDS = 3600;
/** Longest error text kept per row. */
export const MAX_OUTBOX_ERROR_CHARS = 500;
/** Rows `site outbox` shows at most. */
export const MAX_OUTBOX_LISTED = 1000;

/** Serialises window checks of one tenant on PostgreSQL (SQLite runs one transaction at a time anyway). */
async function lockTenant(ctx: SiteContext, tx: SqlRunner): Promise<void> {
  if (ctx.db.dialect === 'postgres') await tx.run('SELECT pg_advisory_xact_lock(7317002, hashtext(?))', [ctx.tenant]);
}

/**
 * Counts the mail against the site's hourly window and adds its row as `sending`; refuses with
 * E_RATE_LIMIT (and no row) when the window is full. Attempts count, sent or not, so failing
 * sends cannot hammer the relay either.
 */
export async function reserve(ctx: SiteContext, mail: OutgoingMail, now: number): Promise<number> {
  const recipients = mail.to.length + mail.cc.length + mail.bcc.length;
  const { max_per_hour: maxMails, max_recipients_per_hour: maxRecipients } = ctx.config.mail;
  return ctx.db.transaction(async (tx) => {
    await lockTenant(ctx, tx);
    const used = await tx.get<{ mails: number | string; recipients: number | string | null }>(
      'SELECT COUNT(*) AS mails, SUM(recipients) AS recipients FROM mail_outbox WHERE tenant = ? AND created > ?',
      [ctx.tenant, now - WINDOW_SECONDS],
    );
    if (Number(used?.mails ?? 0) + 1 > maxMails)
      throw new BridgeError(
        'E_RATE_LIMIT',
        `the site may send at most ${maxMails} mails per hour (site.json mail.max_per_hour)`,
      );
    if (Number(used?.recipients ?? 0) + recipients > maxRecipients) {
      throw new BridgeError(
        'E_RATE_LIMIT',
        `the site may mail at most ${maxRecipients} recipients per hour (site.json mail.max_recipients_per_hour)`,
      );
    }
    const next = await tx.get<{ id: number | string }>(
      'SELECT COALESCE(MAX(id), 0) + 1 AS id FROM mail_outbox WHERE tenant = ?',
      [ctx.tenant],
    );
    const id = Number(next!.id);
    await tx.run(
      `INSERT INTO mail_outbox (tenant, id, created, mail_from, from_name, mail_to, mail_cc, mail_bcc, recipients, subject, body, custom_args, status)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'sending')`,
      [
        ctx.tenant,
        id,
        now,
        mail.from,
        mail.fromName,
        JSON.stringify(mail.to),
        JSON.stringify(mail.cc),
        JSON.stringify(mail.bcc),
        recipients,
        mail.subject,
        mail.body,
        JSON.stringify(mail.customArgs ?? {}),
      ],
    );
    return id;
  });
}

export async function finish(
  ctx: SiteContext,
  id: number,
  status: Exclude<OutboxStatus, 'sending'>,
  detail: { error?: string; messageId?: string } = {},
): Promise<void> {
  await ctx.db.run('UPDATE mail_outbox SET status = ?, error = ?, message_id = ? WHERE tenant = ? AND id = ?', [
    status,
    (detail.error ?? '').slice(0, MAX_OUTBOX_ERROR_CHARS),
    detail.messageId ?? '',
    ctx.tenant,
    id,
  ]);
}

/** The newest `limit` rows, newest first. */
export async function listOutbox(ctx: SiteContext, limit: number): Promise<OutboxRow[]> {
  const rows = await ctx.db.all<Stored>(
    `SELECT id, created, mail_from, from_name, mail_to, mail_cc, mail_bcc, subject, body, custom_args, status, error, message_id
     FROM mail_outbox WHERE tenant = ? ORDER BY id DESC LIMIT ?`,
    [ctx.tenant, Math.min(Math.max(1, limit), MAX_OUTBOX_LISTED)],
  );
  return rows.map((r) => ({
    id: Number(r.id),
    created: Number(r.created),
    from: r.mail_from,
    fromName: r.from_name,
    to: JSON.parse(r.mail_to) as string[],
    cc: JSON.parse(r.mail_cc) as string[],
    bcc: JSON.parse(r.mail_bcc) as string[],
    subject: r.subject,
    body: r.body,
    customArgs: JSON.parse(r.custom_args) as Record<string, string>,
    status: r.status,
    error: r.error,
    messageId: r.message_id,
  }));
}
