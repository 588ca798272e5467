/** Facts about the site itself kept in its database (when it was initialised, with which sample data). */
import type { SchemaModule } from './schema-module.js';

export const metaSchema: SchemaModule = {
  family: 'meta',
  statements: () => [
    `CREATE TABLE IF NOT EXISTS site_meta (
      tenant TEXT NOT NULL,
      key TEXT NOT NULL,
      value TEXT NOT NULL,
      PRIMARY KEY (tenant, key)
    )`,
  ],
};
