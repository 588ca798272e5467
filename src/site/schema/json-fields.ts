/**
 * JSON-type extended columns of content groups. The column itself is an extended column of type
 * `json` (schema/content.ts: topics_ext_columns) and its values are the contents' extended values
 * (topic_ext_values), which is what the content plugins read; this family adds the JSON schema
 * each column is edited and checked with (ext_json_schemas). Values are written by `smartcage
 * serve`'s form editor, after the forms validator passed them (src/site/json-fields.ts).
 *
 * Sites made before D141 kept the values apart, in ext_json_values, and had no column row:
 * migration 2 (migrations.ts) moves them over. The old table stays, empty: it is part of the
 * baseline.
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
    // Before D141: the values, apart from the contents. Emptied by migration 2.
    `CREATE TABLE IF NOT EXISTS ext_json_values (
      tenant TEXT NOT NULL,
      group_id BIGINT NOT NULL,
      slug TEXT NOT NULL,
      topic_id BIGINT NOT NULL,
      value TEXT NOT NULL,
      updated BIGINT NOT NULL,
      PRIMARY KEY (tenant, group_id, slug, topic_id)
    )`,
  ],
};
