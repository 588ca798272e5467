/**
 * What a full backup of a local site holds, and where (docs/site.md "Backups"): one tar archive,
 *
 *   site/...            site.json, .gitignore, functions/, batches/, mail/, templates/ (the folder's
 *                       own files: what `site init` writes and a person edits)
 *   site/<f>.sealed     secrets.json and data/site-key, encrypted with the operator's backup key
 *                       (sealed.ts); without a key they are left out (manifest `left_out`)
 *   files/<root>/...    every file of the site's storage, read through its FileStore
 *   db/<table>.jsonl    the tenant's rows of every table but `backups`, one JSON object a line
 *                       (columns by name, without `tenant`), the same for SQLite and PostgreSQL
 *   manifest.json       last: versions, tables with their row counts, and every entry above with
 *                       its size and SHA-256 (manifest.ts decodes it)
 */
import path from 'node:path';
import { siteTables } from '../db/tenant-rows.js';

export const BACKUP_DIR = path.join('data', 'backups');
/** A backup larger than this is refused (E_SIZE_LIMIT) and nothing is kept. */
export const MAX_BACKUP_BYTES = 1 << 30;
/**
 * Entries of one backup, made or restored (D155): a restore stops reading at the entry past it,
 * so an archive of many tiny entries costs milliseconds, not a minute of host work. `site restore
 * --max-entries` raises it for one restore the operator trusts.
 */
export const MAX_BACKUP_ENTRIES = 10_000;
/** The manifest and the archive's site.json are read into memory: at most this many bytes each. */
export const MAX_MANIFEST_BYTES = 8 << 20;
/** Rows read from the database at a time while a table is exported. */
export const EXPORT_PAGE_ROWS = 1000;
export const MANIFEST = 'manifest.json';
/** 2: secrets sealed or left out (format 1 held them in clear; a restore still reads it). */
export const FORMAT = 2;

/** The site folder's own files and folders a backup keeps (relative to the folder). */
export const SITE_FILES = ['site.json', '.gitignore'] as const;
/** The folder's secrets, relative to it with `/`: sealed with the backup key, or left out. */
export const SECRET_FILES = ['secrets.json', 'data/site-key'] as const;
export type SecretFile = (typeof SECRET_FILES)[number];
/** The entry of a sealed secret file: site/<file> + this. */
export const SEALED_SUFFIX = '.sealed';
export const SITE_FOLDERS = ['functions', 'batches', 'templates', 'mail'] as const;

/**
 * Tables a backup leaves out: the backups themselves, and the storage's usage count and locks
 * (D170), which describe the live storage: a restored site counts its files again at its first write.
 * The content version (D235) is the live caches': the restore's own writes move it on.
 */
const NOT_BACKED_UP = new Set(['backups', 'storage_usage', 'storage_locks', 'content_versions']);

/** Tables kept by a backup: every table the migrations create, in creation order, but NOT_BACKED_UP. */
export function backupTables(): string[] {
  return siteTables().filter((t) => !NOT_BACKED_UP.has(t));
}

/** An archive entry name a restore accepts: one of the three parts, relative, no `..`, no backslash. */
export function safeEntryName(name: string): boolean {
  if (name === MANIFEST) return true;
  if (!/^(site|files|db)\/./.test(name) || name.includes('\\') || name.includes('\0')) return false;
  return name.split('/').every((s) => s !== '' && s !== '.' && s !== '..');
}
