/**
 * Tag categories (a tree by parent id), tags with their open-contents count, names of both per
 * language (a JSON object in `names`), and tag relations: which tags an item (module + module_id)
 * carries, in order.
 */
import type { SchemaModule } from './schema-module.js';

export const tagsSchema: SchemaModule = {
  family: 'tags',
  statements: () => [
    `CREATE TABLE IF NOT EXISTS tag_categories (
      tenant TEXT NOT NULL,
      tag_category_id BIGINT NOT NULL,
      parent_tag_category_id BIGINT,
      names TEXT NOT NULL,
      order_no INTEGER NOT NULL DEFAULT 0,
      PRIMARY KEY (tenant, tag_category_id)
    )`,
    `CREATE TABLE IF NOT EXISTS tags (
      tenant TEXT NOT NULL,
      tag_id BIGINT NOT NULL,
      tag_category_id BIGINT NOT NULL,
      names TEXT NOT NULL,
      order_no INTEGER NOT NULL DEFAULT 0,
      open_contents_cnt INTEGER NOT NULL DEFAULT 0,
      inst_ymdhi TEXT NOT NULL,
      PRIMARY KEY (tenant, tag_id),
      FOREIGN KEY (tenant, tag_category_id) REFERENCES tag_categories (tenant, tag_category_id) ON DELETE CASCADE
    )`,
    'CREATE INDEX IF NOT EXISTS tags_by_category ON tags (tenant, tag_category_id)',
    `CREATE TABLE IF NOT EXISTS tag_relations (
      tenant TEXT NOT NULL,
      module TEXT NOT NULL,
      module_id BIGINT NOT NULL,
      tag_id BIGINT NOT NULL,
      order_no INTEGER NOT NULL DEFAULT 0,
      PRIMARY KEY (tenant, module, module_id, tag_id),
      FOREIGN KEY (tenant, tag_id) REFERENCES tags (tenant, tag_id) ON DELETE CASCADE
    )`,
  ],
};
