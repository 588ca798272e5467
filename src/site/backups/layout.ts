/**
 * What a full backup of a local site holds, and where (docs/site.md "Backups"): one tar archive,
 *
 *   site/...            site.json, .gitignore, secrets.json, data/site-key, functions/, batches/, mail/,
 *                       templates/ (the folder's own files: what `site init` writes and a person edits)
 *   files/<root>/...    every file of the site's storage, read through its FileStore
 *   db/<table>.jsonl    the tenant's rows of every table but `backups`, one JSON object a line
 *                       (columns by name, without `tenant`), the same for SQLite and PostgreSQL
 *   manifest.json       last: versions, tables with their row counts, and every entry above with
 *                       its size and SHA-256
 */
import path from 'node:path';
import { siteTables } from '../db/tenant-rows.js';

export const BACKUP_DIR = path.join('data', 'backups');
/** A backup larger than this is refused (E_SIZE_LIMIT) and nothing is kept. */
export const MAX_BACKUP_BYTES = 1 << 30;
/** Rows read from the database at a time while a table is exported. */
export const EXPORT_PAGE_ROWS = 1000;
export const MANIFEST = 'manifest.json';
export const FORMAT = 1;

/** The site folder's own files and folders a backup keeps (relative to the folder). */
export const SITE_FILES = ['site.json', '.gitignore', 'secrets.json', path.join('data', 'site-key')] as const;
export const SITE_FOLDERS = ['functions', 'batches', 'templates', 'mail'] as const;

/** Tables kept by a backup: every table the migrations create, in creation order, but the backups. */
export function backupTables(): string[] {
  return siteTables().filter((t) => t !== 'backups');
}

export interface ManifestEntry {
  name: string;
  size: number;
  sha256: string;
}

export interface Manifest {
  format: number;
  engine: string;
  site_key: string;
  created: number;
  /** The database the rows came from: `sqlite` or `postgres`. */
  backend: string;
  tables: { name: string; rows: number }[];
  entries: ManifestEntry[];
}

/** An archive entry name a restore accepts: one of the three parts, relative, no `..`, no backslash. */
export function safeEntryName(name: string): boolean {
  if (name === MANIFEST) return true;
  if (!/^(site|files|db)\/./.test(name) || name.includes('\\') || name.includes('\0')) return false;
  return name.split('/').every((s) => s !== '' && s !== '.' && s !== '..');
}
