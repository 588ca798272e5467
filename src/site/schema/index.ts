/**
 * The site store's schema: numbered migrations (migrations.ts) over the families' baseline tables
 * (one SchemaModule file per family). A family that needs a change adds a migration.
 */
export { migrate, schemaStatus, MigrationError, MIGRATIONS, SCHEMA_VERSION, type Migration } from './migrations.js';
