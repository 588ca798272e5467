/**
 * STAND-IN until the members family lands: which member ids exist, so that {login} and
 * {assign_api_credential} can refuse one that does not (adapters/members.ts). When members are
 * kept by their own family, drop this module and sample/members-stand-in.ts and point
 * memberExists at that family's adapter. Its own table name, so it never shadows `members`.
 */
import type { SchemaModule } from './schema-module.js';

export const membersStandInSchema: SchemaModule = {
  family: 'members-stand-in',
  statements: () => [
    `CREATE TABLE IF NOT EXISTS members_stand_in (
      tenant TEXT NOT NULL,
      member_id INTEGER NOT NULL,
      PRIMARY KEY (tenant, member_id)
    )`,
  ],
};
