/**
 * What tells that a local site changed, for `render --watch` and the live preview: the files a
 * site's render reads, and a picture of them (each file's modification time and size) to compare.
 * Change is told by the files themselves, not by watch events, so an editor's three writes of one
 * file are one change, and a render that writes the site's database (a session) is none once the
 * picture is taken after it.
 */
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/** Files under one watched folder that are looked at, at most: a bigger folder is watched in part. */
const MAX_FILES = 20_000;

/** What a local site's render reads besides its template: settings, templates, functions and data (SQLite, files). */
export function siteWatchPaths(siteDir: string): string[] {
  return ['site.json', 'templates', 'functions', 'data', 'files'].map((p) => path.join(siteDir, p));
}

/** Modification time and size of every file of `paths`, as one string to compare. */
export function filesPicture(paths: readonly string[]): string {
  const parts: string[] = [];
  const stamp = (file: string): string => {
    try {
      const s = statSync(file);
      return s.isDirectory() ? 'dir' : `${s.mtimeMs}:${s.size}`;
    } catch {
      return 'missing';
    }
  };
  for (const p of paths) {
    let entries: string[] | undefined;
    try {
      if (statSync(p).isDirectory()) entries = readdirSync(p, { recursive: true, encoding: 'utf8' }).sort();
    } catch {
      // missing: stamped as such below
    }
    if (!entries) parts.push(`${p}=${stamp(p)}`);
    else for (const e of entries.slice(0, MAX_FILES)) parts.push(`${p}/${e}=${stamp(path.join(p, e))}`);
  }
  return parts.join('\n');
}
