/**
 * Texts {detect_document_text} has read (HostAdapters.documentTexts): one row per file and OCR
 * engine, with the SHA-256 of the content it was read from; a file whose content changed no
 * longer matches, and its next reading replaces the row. `pages` is a JSON list of strings.
 */
import type { SchemaModule } from './schema-module.js';

export const documentsSchema: SchemaModule = {
  family: 'documents',
  statements: () => [
    `CREATE TABLE IF NOT EXISTS document_texts (
      tenant TEXT NOT NULL,
      path TEXT NOT NULL,
      engine TEXT NOT NULL,
      sha256 TEXT NOT NULL,
      pages TEXT NOT NULL,
      read_at INTEGER NOT NULL,
      PRIMARY KEY (tenant, path, engine)
    )`,
  ],
};
