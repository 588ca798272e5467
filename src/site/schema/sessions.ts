/**
 * Sessions of the site's members ({login}, {assign_api_credential}). A session is found by the
 * id its cookie carries, or by its access token (X-RCMS-API-ACCESS-TOKEN); both are stored as
 * SHA-256 hashes only, so the table lets nobody act as a member. Times are Unix seconds.
 */
import type { SchemaModule } from './schema-module.js';

export const sessionsSchema: SchemaModule = {
  family: 'sessions',
  statements: () => [
    `CREATE TABLE IF NOT EXISTS sessions (
      tenant TEXT NOT NULL,
      id_hash TEXT NOT NULL,
      member_id INTEGER NOT NULL,
      token_hash TEXT,
      created INTEGER NOT NULL,
      expires INTEGER NOT NULL,
      PRIMARY KEY (tenant, id_hash)
    )`,
    'CREATE INDEX IF NOT EXISTS sessions_token ON sessions (tenant, token_hash)',
    'CREATE INDEX IF NOT EXISTS sessions_expires ON sessions (tenant, expires)',
  ],
};
