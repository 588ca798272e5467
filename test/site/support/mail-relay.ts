/**
 * A real SMTP relay for the site's mail tests: npm smtp-server on 127.0.0.1 with STARTTLS (a
 * certificate made at test time) and AUTH (user "relay"), recording what it accepts; and the
 * site.json / secrets.json / CA file that point a site at it (siteWith changes).
 */
import type { SMTPServerOptions } from 'smtp-server';
import { readFileSync } from 'node:fs';
import { startSmtp, type TestSmtp } from '../../support/smtp-server.js';
import { testCertificate } from '../../support/test-certificate.js';
import type { SiteChanges } from './site-with.js';

const RELAY_USER = 'relay';
const RELAY_PASS = 'パスワード-secret';

export interface MailRelay extends TestSmtp {
  /** siteWith changes: mail.smtp at this relay (STARTTLS required, AUTH from secrets), plus `edit`. */
  site(edit?: (mail: Record<string, unknown>) => void): SiteChanges;
}

export async function startRelay(opts: Partial<SMTPServerOptions> = {}): Promise<MailRelay> {
  const cert = testCertificate();
  const ca = readFileSync(cert.certFile, 'utf8');
  const smtp = await startSmtp({
    key: cert.key,
    cert: cert.cert,
    disabledCommands: [],
    authOptional: false,
    onAuth(auth, _s, cb) {
      if (auth.username === RELAY_USER && auth.password === RELAY_PASS) cb(null, { user: auth.username });
      else cb(new Error('bad credentials'));
    },
    ...opts,
  });
  return {
    ...smtp,
    async close() {
      await smtp.close();
      cert.remove();
    },
    site: (edit) => ({
      edit(config) {
        const mail = config.mail as Record<string, unknown>;
        mail.smtp = {
          host: '127.0.0.1',
          port: smtp.port,
          auth: { user_secret: 'SMTP_USER', pass_secret: 'SMTP_PASS' },
          ca_file: 'relay-ca.pem',
        };
        edit?.(mail);
      },
      files: {
        'relay-ca.pem': ca,
        'secrets.json': JSON.stringify({ SMTP_USER: { value: RELAY_USER }, SMTP_PASS: { value: RELAY_PASS } }),
      },
    }),
  };
}
