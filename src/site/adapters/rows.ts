/** Shaping rows for the adapters: names per language, and `IN (...)` lists both backends take. */
/** `(?, ?, ?)` for `n` values (n >= 1). */
export function placeholders(n: number): string {
  return `(${Array.from({ length: n }, () => '?').join(', ')})`;
}

/** Rows of (id, lang, name) as id -> { lang: name }. */
export function namesById(rows: readonly { id: number; lang: string; name: string }[]): Map<number, Record<string, string>> {
  const out = new Map<number, Record<string, string>>();
  for (const r of rows) {
    let names = out.get(r.id);
    if (!names) out.set(r.id, (names = Object.create(null) as Record<string, string>));
    names[r.lang] = r.name;
  }
  return out;
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
