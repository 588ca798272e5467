/**
 * Several processes opening one SQLite site file at the same moment (`serve --processes N`,
 * batch workers, the CLI beside a server): each open sets WAL while the others hold the file,
 * which SQLite answers with SQLITE_BUSY_RECOVERY without calling the busy handler. CI saw one of
 * three openers fail with "database is locked"; src/site/db/sqlite.ts tries again within the busy
 * timeout. Real processes, a fresh file each round, all released at one instant.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const SQLITE = fileURLToPath(new URL('../../../src/site/db/sqlite.ts', import.meta.url));
const dir = mkdtempSync(path.join(tmpdir(), 'smartcage-sqlite-open-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Waits for `at` (epoch ms), opens the file, writes one row, reads the mode, closes. */
const OPENER = `
const { openSqlite } = await import(process.env.SQLITE_TS);
while (Date.now() < Number(process.env.AT)) {}
const db = openSqlite(process.env.FILE);
await db.run('CREATE TABLE IF NOT EXISTS t (n INTEGER)');
await db.run('INSERT INTO t (n) VALUES (?)', [process.pid]);
const mode = await db.get('PRAGMA journal_mode');
await db.close();
process.stdout.write(mode.journal_mode);
`;

describe('openSqlite from several processes at once', () => {
  it('every opener of a fresh file gets it in WAL mode and its row written', async () => {
    for (let round = 0; round < 3; round++) {
      const file = path.join(dir, `site${round}.sqlite`);
      const at = Date.now() + 1500;
      const outs = await Promise.all(
        Array.from({ length: 4 }, () =>
          run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', OPENER], {
            env: { ...process.env, SQLITE_TS: SQLITE, FILE: file, AT: String(at) },
            timeout: 30_000,
          }),
        ),
      );
      expect(outs.map((o) => o.stdout)).toEqual(['wal', 'wal', 'wal', 'wal']);
    }
  }, 120_000);
});
