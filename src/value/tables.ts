/**
 * The isolate's side of the vars' tables (the host's encoder and the format: src/protocol/tables.ts,
 * docs/decisions.md D281). A list of same-keyed rows crosses as `[TABLE_MARK, keys, ...columns]`,
 * one array per key, and is read in place:
 *
 * - converted (`fromVars`, the converter of the vars' lazy records), a table is a list of rows,
 *   each a PhpArray that reads its cells from the columns (`PhpArray.tableRow`): no object is
 *   made per row, which is what the deserializer saved;
 * - read raw (json_encode's stringify path, {return}'s copy out, anything that takes a record's
 *   plain data by `recordSource`), the data is made plain first (`plainTables`): each table still
 *   in it is replaced, in place, by its rows as plain objects, exactly the objects the structured
 *   clone of the original would have given.
 *
 * Only the vars' data is read this way: `fromVars` is the converter of the records `readVars`
 * makes, so an array that starts with the mark anywhere else (a host's answer, a json_decode) is
 * data like any other. The shape of each table is checked where it is first read; a malformed one
 * (which only a faulty host could send) is E_BAD_VARS.
 */
import { PhpArray, type TableRows } from './php-array.js';
import { fromJS, scalarsCopy, type Value } from './value.js';
import { setOwn } from './set-own.js';

/** The first element of a table. A NUL and a name no data has reason to hold. */
export const TABLE_MARK = '\u0000smartcage:table';

/** A table that does not have the shape the host's encoder writes. */
export class TableError extends Error {
  readonly code = 'E_BAD_VARS';
}

/** How deep tables nest in tables' columns before the data is refused (the encoder stops at 64). */
const MAX_DEPTH = 80;

/**
 * `fromJS` for the vars' data: a table is a list of rows read in place, a plain object a lazy
 * record whose nested values convert by this function, a list's elements likewise.
 */
export function fromVars(v: unknown): Value {
  if (typeof v === 'object' && v !== null) {
    if (Array.isArray(v)) {
      if (v[0] === TABLE_MARK) return rowList(viewOf(v, 0));
      const same = scalarsCopy(v);
      if (same !== null) return PhpArray.fromList(same);
      const list = new Array<Value>(v.length);
      for (let i = 0; i < v.length; i++) list[i] = fromVars(v[i]);
      return PhpArray.fromList(list);
    }
    if (v instanceof PhpArray || v instanceof Date) return fromJS(v);
    if (Object.getPrototypeOf(v) === Object.prototype && Object.isExtensible(v))
      return PhpArray.fromRecord(v as Record<string, unknown>, fromVars, plainTables);
    return PhpArray.fromObject(v as Record<string, unknown>, fromVars);
  }
  return fromJS(v);
}

/** The rows of a table as a packed list. */
function rowList(t: Table): PhpArray {
  const rows = new Array<Value>(t.n);
  for (let i = 0; i < t.n; i++) rows[i] = PhpArray.tableRow(t, i);
  return PhpArray.fromList(rows);
}

/**
 * A table's columns as rows read them: a column that is itself a table (each item's author)
 * becomes its rows, each marked shared as a record's converted value is.
 */
function viewOf(t: unknown[], depth: number): Table {
  if (depth > MAX_DEPTH) throw new TableError('the variables nest deeper than their encoding allows');
  const keys = keysOf(t);
  const m = keys.length;
  const cols: unknown[][] = [];
  let n = -1;
  for (let j = 0; j < m; j++) {
    let c: unknown = t[j + 2];
    if (!Array.isArray(c)) throw new TableError('a table of the variables is malformed');
    if (c[0] === TABLE_MARK) {
      const inner = viewOf(c, depth + 1);
      const rows: PhpArray[] = [];
      for (let i = 0; i < inner.n; i++) {
        const r = PhpArray.tableRow(inner, i);
        r.shared = true;
        rows.push(r);
      }
      c = rows;
    }
    const col = c as unknown[];
    if (n >= 0 && col.length !== n) throw new TableError('a table of the variables is malformed');
    n = col.length;
    cols.push(col);
  }
  return new Table(keys, cols, n);
}

/** A checked table: its keys, their columns, its row count. */
class Table implements TableRows {
  readonly index = new Map<string, number>();
  readonly convert = fromVars;
  readonly plain = plainTables;
  /** One object of the keys, copied per plain row (`plainRow`); made at the first. */
  private shape: Record<string, unknown> | null = null;

  constructor(
    readonly keys: readonly string[],
    readonly cols: unknown[][],
    readonly n: number,
  ) {
    for (let j = 0; j < keys.length; j++) this.index.set(keys[j]!, j);
  }

  /**
   * Row `i` as a plain object: its keys in the table's order, its cells as they are now (a cell
   * converted already is its PhpArray, which every reader of plain data takes as it is). A spread
   * of one object of the keys defines them all at once, in order, along one map transition chain
   * made once, and the values are then stores to properties the row has: 8 against 16 µs for 100
   * rows of 6 keys added one by one to `{}` (plain Node). A key Object.prototype has
   * (`constructor`), which the lockdown froze, is defined by the spread, so `=` never meets the
   * inherited read-only one.
   */
  plainRow(i: number): Record<string, unknown> {
    let shape = this.shape;
    if (shape === null) {
      shape = {};
      for (const k of this.keys) setOwn(shape, k, null);
      this.shape = shape;
    }
    const row = { ...shape };
    const keys = this.keys;
    for (let j = 0; j < keys.length; j++) row[keys[j]!] = this.cols[j]![i];
    return row;
  }
}

function keysOf(t: unknown[]): string[] {
  const keys: unknown = t[1];
  if (!Array.isArray(keys) || keys.length !== t.length - 2 || keys.length === 0)
    throw new TableError('a table of the variables is malformed');
  for (const k of keys as unknown[])
    if (typeof k !== 'string' || k === '__proto__') throw new TableError('a table of the variables has a bad key');
  return keys as string[];
}

/**
 * Every table in `o` (a record's plain data) replaced in place by its rows as plain objects,
 * nested tables first. A list or object that holds no table is left as it is, and so is a value
 * already converted (a PhpArray).
 */
export function plainTables(o: Record<string, unknown>): void {
  plainObject(o, 0);
}

function plainObject(o: Record<string, unknown>, depth: number): void {
  for (const k in o) {
    const x = o[k];
    if (typeof x !== 'object' || x === null) continue;
    const y = plainPart(x, depth + 1);
    if (y !== x) setOwn(o, k, y);
  }
}

function plainPart(x: object, depth: number): unknown {
  if (depth > MAX_DEPTH) throw new TableError('the variables nest deeper than their encoding allows');
  if (Array.isArray(x)) {
    if (x[0] === TABLE_MARK) return plainRows(x, depth);
    for (let i = 0; i < x.length; i++) {
      const e: unknown = x[i];
      if (typeof e === 'object' && e !== null) {
        const y = plainPart(e, depth + 1);
        if (y !== e) x[i] = y;
      }
    }
  } else if (Object.getPrototypeOf(x) === Object.prototype) plainObject(x as Record<string, unknown>, depth);
  return x;
}

/** A table's rows as plain objects, its columns made plain first. */
function plainRows(t: unknown[], depth: number): Record<string, unknown>[] {
  const keys = keysOf(t);
  const cols: unknown[][] = [];
  let n = -1;
  for (let j = 0; j < keys.length; j++) {
    const c = t[j + 2];
    if (!Array.isArray(c)) throw new TableError('a table of the variables is malformed');
    const col = plainPart(c, depth + 1) as unknown[];
    if (n >= 0 && col.length !== n) throw new TableError('a table of the variables is malformed');
    n = col.length;
    cols.push(col);
  }
  const table = new Table(keys, cols, n);
  const rows = new Array<Record<string, unknown>>(n);
  for (let i = 0; i < n; i++) rows[i] = table.plainRow(i);
  return rows;
}
