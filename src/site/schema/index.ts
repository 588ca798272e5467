/**
 * Every family's tables, in the order they are created (a family may reference an earlier one's
 * tables). A family adds its module here.
 */
import type { SiteDatabase } from '../db/database.js';
import type { SchemaModule } from './schema-module.js';
import { metaSchema } from './meta.js';
import { contentSchema } from './content.js';
import { membersSchema } from './members.js';
import { tagsSchema } from './tags.js';
import { communitySchema } from './community.js';
import { sessionsSchema } from './sessions.js';
import { apiSchema } from './api.js';
import { jsonFieldsSchema } from './json-fields.js';
import { documentsSchema } from './documents.js';
import { spiderSchema } from './spider.js';
import { outboxSchema } from './outbox.js';
import { syncSchema } from './sync.js';

import { batchesSchema } from './batches.js';
import { backupsSchema } from './backups.js';
export const SCHEMA: readonly SchemaModule[] = [metaSchema, contentSchema, membersSchema, tagsSchema, communitySchema, sessionsSchema, apiSchema, jsonFieldsSchema, documentsSchema, spiderSchema, outboxSchema, syncSchema, batchesSchema, backupsSchema];

/** Creates what is missing, in one transaction. */
export async function migrate(db: SiteDatabase): Promise<void> {
  await db.transaction(async (tx) => {
    // Two processes opening sites of one PostgreSQL database at once would race on CREATE TABLE.
    if (db.dialect === 'postgres') await tx.run('SELECT pg_advisory_xact_lock(7317001)');
    for (const m of SCHEMA) for (const s of m.statements(db.dialect)) await tx.run(s);
  });
}
