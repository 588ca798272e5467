/**
 * Comments and favorites on the site's items (module_type + module_id: a content, a member...).
 * A favorite is a member's or, for visitors, kept under the id of a cookie: exactly one of the
 * two. Favorites keep their time as Unix seconds, since plugins count them since a moment.
 */
import type { SchemaModule } from './schema-module.js';

export const communitySchema: SchemaModule = {
  family: 'community',
  statements: () => [
    `CREATE TABLE IF NOT EXISTS comments (
      tenant TEXT NOT NULL,
      comment_id BIGINT NOT NULL,
      module_type TEXT NOT NULL,
      module_id BIGINT NOT NULL,
      member_id BIGINT,
      name TEXT NOT NULL DEFAULT '',
      note TEXT NOT NULL,
      open_flg INTEGER NOT NULL DEFAULT 1,
      inst_ymdhi TEXT NOT NULL,
      PRIMARY KEY (tenant, comment_id)
    )`,
    'CREATE INDEX IF NOT EXISTS comments_by_item ON comments (tenant, module_type, module_id, inst_ymdhi)',
    `CREATE TABLE IF NOT EXISTS favorites (
      tenant TEXT NOT NULL,
      favorite_id BIGINT NOT NULL,
      module_type TEXT NOT NULL,
      module_id BIGINT NOT NULL,
      member_id BIGINT,
      cookie_id TEXT,
      action_type INTEGER NOT NULL DEFAULT 0,
      created_at BIGINT NOT NULL,
      PRIMARY KEY (tenant, favorite_id),
      CHECK ((member_id IS NULL) <> (cookie_id IS NULL))
    )`,
    'CREATE INDEX IF NOT EXISTS favorites_by_item ON favorites (tenant, module_type, module_id, action_type)',
  ],
};
