/**
 * Access tokens of the site's APIs ({api_token}). Found by the SHA-256 hash of the token; a
 * static token is also kept as it is, since {api_token} hands an existing one out again, while a
 * dynamic token (a member's) is never stored in the clear. Times are Unix seconds.
 */
import type { SchemaModule } from './schema-module.js';

export const apiSchema: SchemaModule = {
  family: 'api',
  statements: () => [
    `CREATE TABLE IF NOT EXISTS api_tokens (
      tenant TEXT NOT NULL,
      token_hash TEXT NOT NULL,
      api_id INTEGER NOT NULL,
      type TEXT NOT NULL,
      member_id INTEGER,
      token TEXT,
      memo TEXT NOT NULL,
      created INTEGER NOT NULL,
      expires INTEGER NOT NULL,
      PRIMARY KEY (tenant, token_hash)
    )`,
    'CREATE INDEX IF NOT EXISTS api_tokens_api ON api_tokens (tenant, api_id, type, expires)',
  ],
};
