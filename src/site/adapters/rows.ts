/** Shaping rows for the adapters: lists per id, and `IN (...)` lists both backends take. */

/** `(?, ?, ?)` for `n` values (n >= 1). */
export function placeholders(n: number): string {
  return `(${Array.from({ length: n }, () => '?').join(', ')})`;
}

/** Rows of (id, value) as id -> [values in row order]. */
export function listsById(rows: readonly { id: number; value: number }[]): Map<number, number[]> {
  const out = new Map<number, number[]>();
  for (const r of rows) {
    const list = out.get(r.id);
    if (list) list.push(r.value);
    else out.set(r.id, [r.value]);
  }
  return out;
}
