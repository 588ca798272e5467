/** Writing sample rows: many rows per INSERT, the tenant first in each, as both backends take them. */
import type { SqlRunner, SqlValue } from '../db/database.js';

/** Rows per statement: far below the parameter limits of both backends. */
const CHUNK = 100;

/** Inserts `rows` into `table`, each row's values in the order of `columns`, with `tenant` before them. */
export async function insertRows(
  db: SqlRunner,
  tenant: string,
  table: string,
  columns: readonly string[],
  rows: readonly (readonly SqlValue[])[],
): Promise<void> {
  const marks = `(${['?', ...columns.map(() => '?')].join(', ')})`;
  for (let at = 0; at < rows.length; at += CHUNK) {
    const chunk = rows.slice(at, at + CHUNK);
    await db.run(
      `INSERT INTO ${table} (tenant, ${columns.join(', ')}) VALUES ${chunk.map(() => marks).join(', ')}`,
      chunk.flatMap((r) => [tenant, ...r]),
    );
  }
}
