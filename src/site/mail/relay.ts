/**
 * The SMTP relay of a site: site.json mail.smtp made into the options of the package's
 * nodemailer-based sender. The credentials are read from secrets.json, by the names site.json
 * gives, when the open site sends its first mail.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { smtpSender, type SmtpSender, type SmtpOptions } from '../../index.js';
import type { SiteContext } from '../site-context.js';
import type { SmtpConfig } from '../config.js';
import { readSecrets } from '../adapters/secrets.js';

/** Why the relay cannot be used (a missing secret, an unreadable CA file): a failed delivery, with the reason in the outbox. */
class RelayConfigError extends Error {}

function security(smtp: SmtpConfig): NonNullable<SmtpOptions['security']> {
  if (smtp.secure) return 'tls';
  return smtp.starttls === 'required' ? 'starttls' : smtp.starttls === 'opportunistic' ? 'opportunistic' : 'none';
}

function relayOptions(ctx: SiteContext, smtp: SmtpConfig): SmtpOptions {
  let auth: SmtpOptions['auth'];
  if (smtp.auth) {
    const secrets = readSecrets(ctx.dir, ctx.config.secrets);
    const user = secrets[smtp.auth.user_secret]?.value;
    const pass = secrets[smtp.auth.pass_secret]?.value;
    if (typeof user !== 'string' || typeof pass !== 'string') {
      throw new RelayConfigError(
        `mail.smtp.auth names secrets ${smtp.auth.user_secret} and ${smtp.auth.pass_secret}; secrets.json lacks one of them`,
      );
    }
    auth = { user, pass };
  }
  let ca: string | undefined;
  if (smtp.ca_file) {
    try {
      ca = readFileSync(path.join(ctx.dir, smtp.ca_file), 'utf8');
    } catch (e) {
      throw new RelayConfigError(
        `mail.smtp.ca_file ${smtp.ca_file} cannot be read (${(e as NodeJS.ErrnoException).code ?? 'error'})`,
      );
    }
  }
  return {
    host: smtp.host,
    port: smtp.port,
    heloName: smtp.helo ?? new URL(ctx.config.root_url).hostname,
    security: security(smtp),
    ...(auth ? { auth } : {}),
    ...(ca ? { tls: { ca } } : {}),
    ...(smtp.pool ? { pool: smtp.pool } : {}),
  };
}

/** The site's sender, made on first use and closed with the site; null without mail.smtp. */
export function siteRelay(ctx: SiteContext): () => SmtpSender | null {
  let sender: SmtpSender | undefined;
  return () => {
    const smtp = ctx.config.mail.smtp;
    if (!smtp) return null;
    if (!sender) {
      const made = smtpSender(relayOptions(ctx, smtp));
      ctx.atClose(() => made.close());
      sender = made;
    }
    return sender;
  };
}
