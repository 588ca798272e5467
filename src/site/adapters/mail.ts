/**
 * HostAdapters.mail of a local site: verified domains and the default sender from site.json
 * `mail`, members' addresses from the members table, message templates from mail/NAME.tpl, and
 * every mail into the outbox, then to the relay of mail.smtp (nodemailer) when there is one.
 * Without mail.smtp a mail stays in the outbox as `not_sent` and {sendmail} reports it accepted
 * (docs/site.md, "Mail"). The hourly window is counted in the outbox, so it holds across every
 * process that serves the site.
 */
import { BridgeError, type HostAdapters, type MailAdapter } from '../../index.js';
import type { SiteContext } from '../site-context.js';
import { placeholders } from './rows.js';
import { finish as finishNow, reserve } from '../mail/outbox.js';
import { detached } from '../db/render-statements.js';
import { siteRelay } from '../mail/relay.js';
import { renderMailTemplate } from '../mail/templates.js';

/** A mail's outcome is recorded even when its render has just ended (D183): the mail went, or failed. */
const finish: typeof finishNow = (...args) => detached(() => finishNow(...args));

export function mailAdapters(ctx: SiteContext): Partial<HostAdapters> {
  const tenant = ctx.tenant;
  const relay = siteRelay(ctx);
  const mail: MailAdapter = {
    async verifiedDomains() {
      return ctx.config.mail.verified_domains;
    },
    async defaultSender() {
      const { from, from_name: name } = ctx.config.mail;
      return from ? { address: from, ...(name ? { name } : {}) } : null;
    },
    // Who may be mailed: every member of the site with an address (the plugin checks its grammar).
    async memberAddresses(_asker, ids) {
      const rows = ids.length
        ? await ctx.db.all<{ member_id: number | string; email: string }>(
            `SELECT member_id, email FROM members WHERE tenant = ? AND email <> '' AND member_id IN ${placeholders(ids.length)}`,
            [tenant, ...ids],
          )
        : [];
      return new Map(rows.map((r) => [Number(r.member_id), r.email]));
    },
    async renderTemplate(name, vars) {
      return renderMailTemplate(ctx, name, vars);
    },
    async send(outgoing) {
      const id = await reserve(ctx, outgoing, Math.floor(Date.now() / 1000));
      try {
        const sender = relay();
        if (!sender) return await finish(ctx, id, 'not_sent');
        const { messageId } = await sender.deliver(tenant, outgoing);
        await finish(ctx, id, 'sent', { messageId });
      } catch (e) {
        const delivery = (e as { delivery?: { messageId?: unknown } }).delivery;
        await finish(ctx, id, 'failed', {
          error: (e as Error).message,
          messageId: typeof delivery?.messageId === 'string' ? delivery.messageId : '',
        });
        if (e instanceof BridgeError) throw e;
        throw new Error('delivery failed', { cause: e });
      }
    },
  };
  return { mail };
}
