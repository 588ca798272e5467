/**
 * JSON-type extended columns of content groups. The column itself is an extended column of type
 * `json` (schema/content.ts: topics_ext_columns) and its values are the contents' extended values
 * (topic_ext_values), which is what the content plugins read; this family adds the JSON schema
 * each column is edited and checked with (ext_json_schemas). Values are written by `smartcage
 * serve`'s form editor, after the forms validator passed them (src/site/json-fields.ts).
 *
 * Sites made before D190 kept the values apart, in ext_json_values, and had no column row. The
 * statements after the tables move such a site over at its next open, idempotently: a `json`
 * column for each schema that has none (numbered after the group's last column), the values
 * copied into topic_ext_values (a value already there wins), and ext_json_values emptied. The
 * old table stays, empty, so the statements can run on every open on both backends.
 */
import type { SchemaModule } from './schema-module.js';

export const jsonFieldsSchema: SchemaModule = {
  family: 'json-fields',
  statements: () => [
    `CREATE TABLE IF NOT EXISTS ext_json_schemas (
      tenant TEXT NOT NULL,
      group_id BIGINT NOT NULL,
      slug TEXT NOT NULL,
      schema TEXT NOT NULL,
      PRIMARY KEY (tenant, group_id, slug)
    )`,
    // Before D190: the values, apart from the contents. Always empty after the move below.
    `CREATE TABLE IF NOT EXISTS ext_json_values (
      tenant TEXT NOT NULL,
      group_id BIGINT NOT NULL,
      slug TEXT NOT NULL,
      topic_id BIGINT NOT NULL,
      value TEXT NOT NULL,
      updated BIGINT NOT NULL,
      PRIMARY KEY (tenant, group_id, slug, topic_id)
    )`,
    `INSERT INTO topics_ext_columns (tenant, id, group_id, slug, type, repeat_cnt, order_no)
     SELECT s.tenant,
            COALESCE((SELECT MAX(c.id) FROM topics_ext_columns c WHERE c.tenant = s.tenant), 0) + ROW_NUMBER() OVER (PARTITION BY s.tenant ORDER BY s.group_id, s.slug),
            s.group_id, s.slug, 'json', 1,
            COALESCE((SELECT MAX(c.order_no) FROM topics_ext_columns c WHERE c.tenant = s.tenant AND c.group_id = s.group_id), 0) + ROW_NUMBER() OVER (PARTITION BY s.tenant, s.group_id ORDER BY s.slug)
     FROM ext_json_schemas s
     WHERE EXISTS (SELECT 1 FROM topics_groups g WHERE g.tenant = s.tenant AND g.id = s.group_id)
       AND NOT EXISTS (SELECT 1 FROM topics_ext_columns c WHERE c.tenant = s.tenant AND c.group_id = s.group_id AND c.slug = s.slug)`,
    `INSERT INTO topic_ext_values (tenant, topic_id, column_id, idx, value)
     SELECT v.tenant, v.topic_id, c.id, 0, v.value
     FROM ext_json_values v
     JOIN topics_ext_columns c ON c.tenant = v.tenant AND c.group_id = v.group_id AND c.slug = v.slug AND c.type = 'json'
     JOIN topics t ON t.tenant = v.tenant AND t.id = v.topic_id AND t.group_id = v.group_id
     WHERE true
     ON CONFLICT (tenant, topic_id, column_id, idx) DO NOTHING`,
    'DELETE FROM ext_json_values',
  ],
};
