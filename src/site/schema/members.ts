/**
 * Members, their groups (names per language, viewing permissions, membership) and the member
 * custom searches with their cached results. Ids are the platform's, given by the data, so they
 * are part of the key with the tenant. Names per language are a JSON object in a `names` column,
 * as in the content family.
 */
import type { SchemaModule } from './schema-module.js';

export const membersSchema: SchemaModule = {
  family: 'members',
  statements: () => [
    `CREATE TABLE IF NOT EXISTS members (
      tenant TEXT NOT NULL,
      member_id BIGINT NOT NULL,
      name1 TEXT NOT NULL DEFAULT '',
      name2 TEXT NOT NULL DEFAULT '',
      nickname TEXT NOT NULL DEFAULT '',
      email TEXT NOT NULL DEFAULT '',
      login_id TEXT NOT NULL DEFAULT '',
      open_flg INTEGER NOT NULL DEFAULT 1,
      inst_ymdhi TEXT NOT NULL,
      update_ymdhi TEXT NOT NULL,
      PRIMARY KEY (tenant, member_id)
    )`,
    `CREATE TABLE IF NOT EXISTS member_groups (
      tenant TEXT NOT NULL,
      group_id BIGINT NOT NULL,
      names TEXT NOT NULL,
      order_no INTEGER NOT NULL DEFAULT 0,
      PRIMARY KEY (tenant, group_id)
    )`,
    // Viewing permission: the members of group_id may be viewed by the members of viewer_group_id.
    `CREATE TABLE IF NOT EXISTS member_group_viewers (
      tenant TEXT NOT NULL,
      group_id BIGINT NOT NULL,
      viewer_group_id BIGINT NOT NULL,
      PRIMARY KEY (tenant, group_id, viewer_group_id),
      FOREIGN KEY (tenant, group_id) REFERENCES member_groups (tenant, group_id) ON DELETE CASCADE,
      FOREIGN KEY (tenant, viewer_group_id) REFERENCES member_groups (tenant, group_id) ON DELETE CASCADE
    )`,
    `CREATE TABLE IF NOT EXISTS member_group_members (
      tenant TEXT NOT NULL,
      member_id BIGINT NOT NULL,
      group_id BIGINT NOT NULL,
      PRIMARY KEY (tenant, member_id, group_id),
      FOREIGN KEY (tenant, member_id) REFERENCES members (tenant, member_id) ON DELETE CASCADE,
      FOREIGN KEY (tenant, group_id) REFERENCES member_groups (tenant, group_id) ON DELETE CASCADE
    )`,
    `CREATE TABLE IF NOT EXISTS member_custom_searches (
      tenant TEXT NOT NULL,
      cs_id BIGINT NOT NULL,
      name TEXT NOT NULL,
      conditions TEXT NOT NULL DEFAULT '{}',
      PRIMARY KEY (tenant, cs_id)
    )`,
    `CREATE TABLE IF NOT EXISTS member_custom_search_results (
      tenant TEXT NOT NULL,
      cs_id BIGINT NOT NULL,
      member_id BIGINT NOT NULL,
      PRIMARY KEY (tenant, cs_id, member_id),
      FOREIGN KEY (tenant, cs_id) REFERENCES member_custom_searches (tenant, cs_id) ON DELETE CASCADE,
      FOREIGN KEY (tenant, member_id) REFERENCES members (tenant, member_id) ON DELETE CASCADE
    )`,
    'CREATE INDEX IF NOT EXISTS member_cs_results_by_member ON member_custom_search_results (tenant, member_id)',
  ],
};
