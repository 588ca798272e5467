/**
 * JSON-type extended columns of content groups: the JSON schema each is edited and checked with
 * (ext_json_schemas) and the value per content (ext_json_values, the JSON text). A column is
 * named by its group and slug, as the content family names its extended columns. Values are
 * written only by `smartcage serve`'s form editor, after the forms validator passed them.
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
