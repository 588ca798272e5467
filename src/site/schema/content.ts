/**
 * The content family's tables: content groups, contents and their texts per language, extended
 * columns and their values, categories, counters (synced and pending), master CSV tables and
 * child sites. Names per language are a JSON object in a `names` column (`{"ja": ..., "en": ...}`);
 * a content's subject and body, which are long and searched, are rows of topic_texts.
 * Instants are INTEGER Unix seconds, a content's date (ymd) is TEXT `YYYY-MM-DD`.
 */
import type { SchemaModule } from './schema-module.js';

const TOPIC_FK = 'FOREIGN KEY (tenant, topic_id) REFERENCES topics (tenant, id) ON DELETE CASCADE';

/** The two counter tables have one shape: a value per content, counter column and index. */
const counterTable = (name: string): string => `CREATE TABLE IF NOT EXISTS ${name} (
      tenant TEXT NOT NULL,
      topic_id BIGINT NOT NULL,
      column_id BIGINT NOT NULL,
      idx INTEGER NOT NULL,
      value BIGINT NOT NULL,
      PRIMARY KEY (tenant, topic_id, column_id, idx),
      ${TOPIC_FK}
    )`;

export const contentSchema: SchemaModule = {
  family: 'content',
  statements: () => [
    `CREATE TABLE IF NOT EXISTS topics_groups (
      tenant TEXT NOT NULL,
      id BIGINT NOT NULL,
      names TEXT NOT NULL,
      descriptions TEXT NOT NULL DEFAULT '{}',
      PRIMARY KEY (tenant, id)
    )`,
    `CREATE TABLE IF NOT EXISTS topics_categories (
      tenant TEXT NOT NULL,
      id BIGINT NOT NULL,
      group_id BIGINT NOT NULL,
      parent_id BIGINT,
      slug TEXT,
      names TEXT NOT NULL,
      order_no INTEGER NOT NULL DEFAULT 0,
      open_flg INTEGER NOT NULL DEFAULT 1,
      PRIMARY KEY (tenant, id),
      FOREIGN KEY (tenant, group_id) REFERENCES topics_groups (tenant, id)
    )`,
    `CREATE TABLE IF NOT EXISTS topics (
      tenant TEXT NOT NULL,
      id BIGINT NOT NULL,
      group_id BIGINT NOT NULL,
      slug TEXT,
      ymd TEXT NOT NULL,
      open_flg INTEGER NOT NULL,
      open_from BIGINT,
      open_until BIGINT,
      inst_at BIGINT NOT NULL,
      update_at BIGINT NOT NULL,
      category_id BIGINT,
      order_no INTEGER NOT NULL DEFAULT 0,
      PRIMARY KEY (tenant, id),
      UNIQUE (tenant, group_id, slug),
      FOREIGN KEY (tenant, group_id) REFERENCES topics_groups (tenant, id)
    )`,
    'CREATE INDEX IF NOT EXISTS topics_of_group ON topics (tenant, group_id)',
    `CREATE TABLE IF NOT EXISTS topic_texts (
      tenant TEXT NOT NULL,
      topic_id BIGINT NOT NULL,
      lang TEXT NOT NULL,
      subject TEXT NOT NULL,
      contents TEXT NOT NULL,
      PRIMARY KEY (tenant, topic_id, lang),
      ${TOPIC_FK}
    )`,
    `CREATE TABLE IF NOT EXISTS topics_ext_columns (
      tenant TEXT NOT NULL,
      id BIGINT NOT NULL,
      group_id BIGINT NOT NULL,
      slug TEXT NOT NULL,
      type TEXT NOT NULL,
      repeat_cnt INTEGER NOT NULL DEFAULT 1,
      order_no INTEGER NOT NULL DEFAULT 0,
      PRIMARY KEY (tenant, id),
      UNIQUE (tenant, group_id, slug),
      FOREIGN KEY (tenant, group_id) REFERENCES topics_groups (tenant, id)
    )`,
    `CREATE TABLE IF NOT EXISTS topic_ext_values (
      tenant TEXT NOT NULL,
      topic_id BIGINT NOT NULL,
      column_id BIGINT NOT NULL,
      idx INTEGER NOT NULL,
      value TEXT,
      PRIMARY KEY (tenant, topic_id, column_id, idx),
      ${TOPIC_FK}
    )`,
    // A counter's value as contents show it: written only by sync_counter.
    counterTable('topic_counters'),
    // The latest value increment_counter and update_counter wrote; sync_counter publishes it into topic_counters.
    counterTable('topic_counters_pending'),
    `CREATE TABLE IF NOT EXISTS csv_tables (
      tenant TEXT NOT NULL,
      id BIGINT NOT NULL,
      names TEXT NOT NULL,
      columns TEXT NOT NULL,
      PRIMARY KEY (tenant, id)
    )`,
    `CREATE TABLE IF NOT EXISTS csv_rows (
      tenant TEXT NOT NULL,
      table_id BIGINT NOT NULL,
      lang TEXT NOT NULL,
      row_no INTEGER NOT NULL,
      cells TEXT NOT NULL,
      PRIMARY KEY (tenant, table_id, lang, row_no),
      FOREIGN KEY (tenant, table_id) REFERENCES csv_tables (tenant, id) ON DELETE CASCADE
    )`,
    `CREATE TABLE IF NOT EXISTS child_sites (
      tenant TEXT NOT NULL,
      site_key TEXT NOT NULL,
      names TEXT NOT NULL,
      url TEXT NOT NULL,
      lang TEXT NOT NULL,
      timezone TEXT NOT NULL,
      open_flg INTEGER NOT NULL DEFAULT 1,
      inst_at BIGINT NOT NULL,
      PRIMARY KEY (tenant, site_key)
    )`,
  ],
};
