/**
 * The spider ({kick_spider}): settings rows (status Enabled or Disabled, start URLs and allowed
 * origins as JSON arrays of text, page and depth bounds), one history row per run (numbered per
 * tenant, the run it re-executed, its target URLs as a JSON array or NULL, Unix seconds) and the
 * pages each run fetched, numbered in the order they were fetched.
 */
import type { SchemaModule } from './schema-module.js';

export const spiderSchema: SchemaModule = {
  family: 'spider',
  statements: () => [
    `CREATE TABLE IF NOT EXISTS spider_settings (
      tenant TEXT NOT NULL,
      spider_settings_id BIGINT NOT NULL,
      name TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('Enabled', 'Disabled')),
      start_urls TEXT NOT NULL,
      allowed_origins TEXT NOT NULL DEFAULT '[]',
      max_pages INTEGER NOT NULL DEFAULT 50,
      max_depth INTEGER NOT NULL DEFAULT 2,
      PRIMARY KEY (tenant, spider_settings_id)
    )`,
    `CREATE TABLE IF NOT EXISTS spider_history (
      tenant TEXT NOT NULL,
      spider_history_id BIGINT NOT NULL,
      spider_settings_id BIGINT NOT NULL,
      rerun_of BIGINT,
      target_urls TEXT,
      status TEXT NOT NULL,
      stop_reason TEXT NOT NULL DEFAULT '',
      pages INTEGER NOT NULL DEFAULT 0,
      started_at BIGINT NOT NULL,
      finished_at BIGINT,
      PRIMARY KEY (tenant, spider_history_id)
    )`,
    'CREATE INDEX IF NOT EXISTS spider_history_by_settings ON spider_history (tenant, spider_settings_id)',
    `CREATE TABLE IF NOT EXISTS spider_pages (
      tenant TEXT NOT NULL,
      spider_history_id BIGINT NOT NULL,
      seq INTEGER NOT NULL,
      url TEXT NOT NULL,
      depth INTEGER NOT NULL,
      status INTEGER NOT NULL,
      bytes INTEGER NOT NULL,
      content_type TEXT NOT NULL,
      title TEXT NOT NULL,
      error TEXT NOT NULL,
      PRIMARY KEY (tenant, spider_history_id, seq)
    )`,
  ],
};
