/**
 * The outbox: one row per mail {sendmail} handed to the site, sent or not. Ids count up per
 * tenant (given by the mail adapter under its per-tenant lock). Addresses are JSON arrays of
 * canonical addresses; times are Unix seconds. Status: `sending` while the relay has it (a row
 * left so says the process died meanwhile), `sent`, `failed` (error says why) or `not_sent` (the
 * site has no mail.smtp). The sending window counts these rows.
 */
import type { SchemaModule } from './schema-module.js';

export const outboxSchema: SchemaModule = {
  family: 'outbox',
  statements: () => [
    `CREATE TABLE IF NOT EXISTS mail_outbox (
      tenant TEXT NOT NULL,
      id BIGINT NOT NULL,
      created INTEGER NOT NULL,
      mail_from TEXT NOT NULL,
      from_name TEXT NOT NULL,
      mail_to TEXT NOT NULL,
      mail_cc TEXT NOT NULL,
      mail_bcc TEXT NOT NULL,
      recipients INTEGER NOT NULL,
      subject TEXT NOT NULL,
      body TEXT NOT NULL,
      custom_args TEXT NOT NULL DEFAULT '{}',
      status TEXT NOT NULL,
      error TEXT NOT NULL DEFAULT '',
      message_id TEXT NOT NULL DEFAULT '',
      PRIMARY KEY (tenant, id)
    )`,
    'CREATE INDEX IF NOT EXISTS mail_outbox_by_time ON mail_outbox (tenant, created)',
  ],
};
