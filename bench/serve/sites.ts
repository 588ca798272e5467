/**
 * Many sample sites, quickly: `site init` once, then each further site a copy of that folder with
 * its own site key, in site.json and in the `tenant` column of every table of its SQLite file
 * (every table has one: src/site/db/database.ts). ~5 ms a site instead of ~500 ms for an init.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { BIN, NODE } from './processes.js';

/** Site keys of `makeSites`: s0001, s0002... */
const siteKey = (i: number) => `s${String(i + 1).padStart(4, '0')}`;

/** `n` sites under `dir` (made once; a folder that already has them is kept). */
export function makeSites(dir: string, n: number): string[] {
  mkdirSync(dir, { recursive: true });
  const base = path.join(dir, '..', `${path.basename(dir)}-base`);
  if (!existsSync(path.join(base, 'site.json')))
    execFileSync(NODE, ['--no-node-snapshot', BIN, 'site', 'init', base, '--site-key', 'base'], { stdio: 'ignore' });
  const keys: string[] = [];
  for (let i = 0; i < n; i++) {
    const key = siteKey(i);
    keys.push(key);
    const to = path.join(dir, key);
    if (existsSync(path.join(to, 'site.json'))) continue;
    cpSync(base, to, { recursive: true });
    const file = path.join(to, 'site.json');
    writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), site_key: key }, null, 2) + '\n');
    const db = new DatabaseSync(path.join(to, 'data', 'site.sqlite'));
    try {
      const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[];
      // Rows name their tenant in their keys too: the foreign keys are checked when all have moved.
      db.exec('PRAGMA foreign_keys = OFF');
      db.exec('BEGIN');
      for (const { name } of tables) {
        const cols = db.prepare(`PRAGMA table_info("${name}")`).all() as { name: string }[];
        if (cols.some((c) => c.name === 'tenant')) db.prepare(`UPDATE "${name}" SET tenant = ?`).run(key);
      }
      db.exec('COMMIT');
    } finally {
      db.close();
    }
  }
  return keys;
}
