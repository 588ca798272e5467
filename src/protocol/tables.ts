/**
 * The host's side of the vars' tables (docs/decisions.md D281): the render's plain variables with
 * each list of same-keyed rows sent as a table, one array per key. V8's deserializer costs per
 * object and per property, not per byte: the JSON page's 50 items of 9 keys (and their 50
 * authors) cross as 13 arrays instead of 100 objects, and the copy into the isolate takes about
 * half the time. The isolate reads the rows in place (src/value/tables.ts): a row is a PhpArray
 * over the columns, and a raw reader (json_encode's stringify path, {return}'s copy out) gets
 * the plain objects the structured clone of the original would have given it.
 *
 * A table is an array `[TABLE_MARK, keys, column 0, column 1, ...]`: every row has exactly
 * `keys`, in that order, and column j holds each row's value of `keys[j]` (a column of rows is a
 * table itself). The mark is a string, so data could spell it: the encoder gives up (the vars go
 * as they are, format `plain`) on any array of the data that starts with it, so in the `tables`
 * format an array that starts with the mark is a table and nothing else. Only the host writes
 * this format (the vars come from the embedder through the engine; a template or a host call's
 * answer never reaches it), and the isolate still checks each table's shape where it reads it
 * and refuses a malformed one with E_BAD_VARS.
 *
 * What the encoder takes as a row is what fromJS reads in place after the clone: a plain object
 * (prototype Object.prototype) whose own enumerable keys (for...in, when Object.prototype lends
 * none) are the first row's, in the same order; not `__proto__`, which an assignment would take
 * as the prototype. A hole, a null, a list, a Date or a class instance among the rows sends the
 * list as it is (its elements still walked). Integer-like keys are kept: Object.keys lists them
 * first in both the original and the rebuilt row. The walk stops (and the vars go as they are)
 * past MAX_VALUES values or MAX_DEPTH levels, so shared references and cycles, which the clone
 * keeps and a walk would repeat, cost at most that.
 */
import { setOwn } from '../value/set-own.js';
import { prototypeLendsKeys } from '../value/prototype-keys.js';
import { TABLE_MARK } from '../value/tables.js';

export { TABLE_MARK };

/** `[TABLE_MARK, keys, ...columns]`: n rows of `keys`, column j their values of `keys[j]`. */
type Table = [mark: typeof TABLE_MARK, keys: string[], ...columns: unknown[][]];

/** A list this short is sent as it is: a table of one row saves nothing. */
const MIN_ROWS = 2;
/** Values and containers visited before the walk gives up (as src/sandbox/plain-json.ts). */
const MAX_VALUES = 200_000;
const MAX_DEPTH = 64;

/** Thrown inside the walk only: the vars go as they are. */
const GIVE_UP: unique symbol = Symbol('give up');

/**
 * The variables with their lists of rows as tables, or null where nothing was made a table or the
 * walk gave up (the caller then sends `vars` as it is). `vars` is not changed: a level that holds
 * a table is a copy, the rest is shared.
 */
export function encodeTables(vars: Record<string, unknown>): Record<string, unknown> | null {
  if (prototypeLendsKeys()) return null;
  const w = new Walk();
  try {
    const out = w.object(vars, 0);
    return w.tables > 0 ? out : null;
  } catch (e) {
    if (e === GIVE_UP) return null;
    throw e;
  }
}

class Walk {
  budget = MAX_VALUES;
  tables = 0;

  /** One value: itself, or a copy of it that holds a table. */
  part(x: unknown, depth: number): unknown {
    if (typeof x !== 'object' || x === null) return x;
    if (--this.budget < 0 || depth > MAX_DEPTH) throw GIVE_UP;
    if (Array.isArray(x)) return this.list(x, depth);
    if (Object.getPrototypeOf(x) === Object.prototype) return this.object(x as Record<string, unknown>, depth);
    this.scan(x, depth);
    return x;
  }

  /** A plain object, copied from its first key whose value changes. */
  object(o: Record<string, unknown>, depth: number): Record<string, unknown> {
    let copy: Record<string, unknown> | null = null;
    for (const k in o) {
      const x = o[k];
      const y = this.part(x, depth + 1);
      if (y !== x && copy === null) {
        copy = {};
        for (const k2 in o) {
          if (k2 === k) break;
          setOwn(copy, k2, o[k2]);
        }
      }
      if (copy !== null) setOwn(copy, k, y);
    }
    return copy ?? o;
  }

  /** A list: a table when its elements are rows, else copied from its first element that changes. */
  list(a: readonly unknown[], depth: number): unknown {
    const n = a.length;
    if (n === 0) return a;
    if ((this.budget -= n) < 0) throw GIVE_UP;
    const first = a[0];
    if (first === TABLE_MARK) throw GIVE_UP;
    if (n >= MIN_ROWS && isRow(first)) {
      const t = this.table(a, depth);
      if (t !== null) return t;
    }
    let copy: unknown[] | null = null;
    for (let i = 0; i < n; i++) {
      const e = a[i];
      const y = this.part(e, depth + 1);
      if (y !== e && copy === null) copy = a.slice(0, i);
      if (copy !== null) copy[i] = y;
    }
    return copy ?? a;
  }

  /** The rows of `a` as a table, or null at the first element that is not a row of the first's keys. */
  table(a: readonly unknown[], depth: number): Table | null {
    const keys = Object.keys(a[0] as object);
    const m = keys.length;
    if (m === 0 || keys.includes('__proto__')) return null;
    if ((this.budget -= a.length * m) < 0) throw GIVE_UP;
    const cols: unknown[][] = [];
    for (let j = 0; j < m; j++) cols.push([]);
    for (let i = 0; i < a.length; i++) {
      const row = a[i];
      if (!isRow(row)) return null;
      let j = 0;
      for (const k in row) {
        if (j === m || k !== keys[j]) return null;
        cols[j]!.push(row[k]);
        j++;
      }
      if (j !== m) return null;
    }
    // Each column is walked as a list of its own: a column of rows (each item's author) is a
    // table too, and a cell may hold lists of rows.
    const t: Table = [TABLE_MARK, keys];
    for (let j = 0; j < m; j++) t.push(this.column(cols[j]!, depth + 1));
    this.tables++;
    return t;
  }

  /** A column the walk made: a table, or itself with its cells replaced in place. */
  column(c: unknown[], depth: number): unknown[] {
    if (c[0] === TABLE_MARK) throw GIVE_UP;
    if (c.length >= MIN_ROWS && isRow(c[0])) {
      const t = this.table(c, depth);
      if (t !== null) return t;
    }
    for (let i = 0; i < c.length; i++) {
      const e = c[i];
      if (typeof e === 'object' && e !== null) c[i] = this.part(e, depth + 1);
    }
    return c;
  }

  /**
   * An object the clone copies as an object of its own keys (a class instance, one without a
   * prototype) or as something fromJS reads nothing from (a Date, a Map): left as it is, but
   * searched for an array that starts with the mark, which the isolate would take as a table.
   */
  scan(x: object, depth: number): void {
    // A typed array's keys are its indices, and its values numbers.
    if (ArrayBuffer.isView(x)) return;
    for (const k of Object.keys(x)) {
      const v = (x as Record<string, unknown>)[k];
      if (typeof v !== 'object' || v === null) continue;
      if (--this.budget < 0 || depth > MAX_DEPTH) throw GIVE_UP;
      if (Array.isArray(v) && v[0] === TABLE_MARK) throw GIVE_UP;
      this.scan(v, depth + 1);
    }
  }
}

function isRow(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && Object.getPrototypeOf(x) === Object.prototype;
}
