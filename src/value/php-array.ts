/**
 * PHP's ordered array: integer and string keys in insertion order, "1" stored as 1,
 * appends at the next free integer index.
 *
 * Two storage modes, as in PHP itself: a packed list while the keys are exactly 0..n-1
 * (the common case, and the fast one), and an ordered Map once they are not.
 *
 * PHP arrays are values, JavaScript arrays are references. Rather than copying on every
 * assignment, an array that has been stored in a second place is marked `shared`; whoever
 * wants to mutate a shared array takes `forWrite()` first, which copies it. This is PHP's
 * copy-on-write with a one-bit reference count that never goes back down.
 *
 * A third mode, a lazy record, holds a plain object of the render's variables as it came into
 * the isolate (`fromRecord`): reads go to the object itself and convert a nested value the first
 * time it is read, and anything else settles it into one of the two modes first, exactly as
 * `fromObject` would have built it. Most of a page's variables are only read, field by field:
 * converting them all up front was a Map per object and over a third of the garbage of a render
 * of the benchmark page (316 -> 216 KB).
 *
 * A fourth, a table row, is one row of a table of the vars (./tables.ts, D281): a list of
 * same-keyed rows that crossed as one array per key. A read takes the cell from its column, as a
 * lazy record's takes the property; anything else first makes the row the lazy record of the
 * plain object the row would have been.
 */
import type { Value, Key } from './value.js';

/** A table of the vars read in place (./tables.ts): what its rows read. */
export interface TableRows {
  readonly keys: readonly string[];
  /** Each key's column. */
  readonly index: ReadonlyMap<string, number>;
  /** The cells, column by column; a cell converted on its first read is written back. */
  readonly cols: unknown[][];
  /** The rows' converter and the raw readers' preparation, as `fromRecord` takes them. */
  readonly convert: (x: unknown) => Value;
  readonly plain: (o: Record<string, unknown>) => void;
  /** Row `i` as the plain object it would have been, its cells as they are now. */
  plainRow(i: number): Record<string, unknown>;
}
import { INT_MAX, TWO_53, floatToInt, intOf, intOfDecimal } from './int64.js';

export class PhpArray {
  /** Packed storage: keys are exactly 0..list.length-1 and nextIndex === list.length. */
  private list: Value[] | null;
  private map: Map<Key, Value> | null;
  /** PHP's nNextFreeElement: one past the largest int key (a bigint past 2^53, capped at PHP_INT_MAX). */
  private next: number | bigint;
  /** Lazy record storage (see above); `list` and `map` are both null while it is set. */
  private rec: Record<string, unknown> | null = null;
  private convert: ((x: unknown) => Value) | null = null;
  /** What a record's plain data needs before a raw reader takes it (`recordSource`), once. */
  private plain: ((o: Record<string, unknown>) => void) | null = null;
  /** Table row storage: the table, and the row's index in `next` (all three others null). */
  private tab: TableRows | null = null;
  shared = false;

  private constructor(list: Value[] | null, map: Map<Key, Value> | null, next: number | bigint) {
    this.list = list;
    this.map = map;
    this.next = next;
  }

  static empty(): PhpArray {
    return new PhpArray([], null, 0);
  }

  /** Takes ownership of `values`. */
  static fromList(values: Value[]): PhpArray {
    return new PhpArray(values, null, values.length);
  }

  /**
   * A JavaScript object's own properties, in order, values converted by `convert`. Objects whose
   * keys are all names (the usual variables) skip the packed start and its conversion to a map.
   */
  static fromObject(o: Record<string, unknown>, convert: (x: unknown) => Value): PhpArray {
    const names = Object.keys(o);
    const map = new Map<Key, Value>();
    for (const name of names) {
      const k = normalizeKey(name);
      if (typeof k !== 'string') return PhpArray.fromEntries(names.map((n) => [n, convert(o[n])] as const));
      map.set(k, convert(o[name]));
    }
    return names.length ? new PhpArray(null, map, 0) : PhpArray.empty();
  }

  /**
   * A lazy view of a plain, extensible object that this array takes over: converted values are
   * written back into it, so each nested value is converted once. A nested array converted on
   * read is marked shared, since the same object may sit in two places of the data (structured
   * clone keeps such sharing) and each place must be a value of its own.
   */
  static fromRecord(
    o: Record<string, unknown>,
    convert: (x: unknown) => Value,
    plain: ((o: Record<string, unknown>) => void) | null = null,
  ): PhpArray {
    // `next` holds the record's key count once counted (-1 until then): its keys cannot change
    // while it is a record, and a count in a loop should not list them every time.
    const a = new PhpArray(null, null, -1);
    a.rec = o;
    a.convert = convert;
    a.plain = plain;
    return a;
  }

  /** Row `i` of a table of the vars, read in place (see the header). */
  static tableRow(t: TableRows, i: number): PhpArray {
    const a = new PhpArray(null, null, i);
    a.tab = t;
    return a;
  }

  static fromEntries(entries: Iterable<readonly [Key, Value]>): PhpArray {
    const a = PhpArray.empty();
    for (const [k, v] of entries) a.set(k, v);
    return a;
  }

  get size(): number {
    if (this.tab !== null) return this.tab.keys.length;
    if (this.rec) return this.next >= 0 ? (this.next as number) : (this.next = Object.keys(this.rec).length);
    return this.list ? this.list.length : this.map!.size;
  }

  get isList(): boolean {
    if (this.rec !== null || this.tab !== null) this.settle();
    return this.list !== null;
  }

  /** The next index `push` would use (PHP's nNextFreeElement). */
  get nextIndex(): number | bigint {
    if (this.rec !== null || this.tab !== null) this.settle();
    return this.next;
  }

  get(key: Key): Value {
    // The two common reads first, exactly as the general path below answers them: an int
    // below 2^31 within a packed list (`| 0` keeps only those; -0 reads index 0, as PHP's
    // (int)-0.0 does), and a name in a lazy record, whose property is the same for a string
    // and for the int it normalizes to ("1" and 1 are both the property "1").
    const list = this.list;
    if (list !== null) {
      if (typeof key === 'number' && key >= 0 && key < list.length && (key | 0) === key) return list[key];
    } else if (this.rec !== null && typeof key === 'string') return this.recordGet(key);
    else if (this.tab !== null && typeof key === 'string') return this.tableGet(key);
    return this.getAny(key);
  }

  /** `get` of any key: normalized first. */
  private getAny(key: Key): Value {
    const k = normalizeKey(key);
    if (this.list) {
      if (typeof k === 'number' && k >= 0 && k < this.list.length) return this.list[k];
      return null;
    }
    if (this.rec) return this.recordGet(k);
    if (this.tab) return this.tableGet(typeof k === 'string' ? k : String(k));
    const v = this.map!.get(k);
    return v === undefined ? null : v;
  }

  has(key: Key): boolean {
    const k = normalizeKey(key);
    if (this.list) return typeof k === 'number' && k >= 0 && k < this.list.length;
    if (this.rec) return this.recordHas(k);
    if (this.tab) return this.tab.index.has(typeof k === 'string' ? k : String(k));
    return this.map!.has(k);
  }

  set(key: Key, value: Value): void {
    const k = normalizeKey(key);
    if (this.rec !== null || this.tab !== null) this.settle();
    if (this.list) {
      if (typeof k === 'number') {
        if (k >= 0 && k < this.list.length) {
          this.list[k] = value;
          return;
        }
        if (k === this.list.length) {
          this.list.push(value);
          this.next = this.list.length;
          return;
        }
      }
      this.toMap();
    }
    this.map!.set(k, value);
    if (typeof k !== 'string' && k >= this.next) this.next = after(k);
  }

  push(value: Value): void {
    if (this.rec !== null || this.tab !== null) this.settle();
    if (this.list) {
      this.list.push(value);
      this.next = this.list.length;
      return;
    }
    const k = this.next;
    if (k === INT_MAX && this.map!.has(k))
      throw new Error('Cannot add element to the array as the next element is already occupied');
    this.map!.set(k, value);
    this.next = after(k);
  }

  delete(key: Key): void {
    const k = normalizeKey(key);
    if (!this.has(k)) return;
    if (this.rec !== null || this.tab !== null) this.settle();
    // Deleting from a list leaves a hole (or keeps nextIndex past the end): no longer packed.
    if (this.list) this.toMap();
    this.map!.delete(k);
  }

  keys(): Key[] {
    if (this.rec !== null || this.tab !== null) this.settle();
    if (this.list) return this.list.map((_, i) => i);
    return Array.from(this.map!.keys());
  }

  values(): Value[] {
    if (this.rec !== null || this.tab !== null) this.settle();
    if (this.list) return this.list.slice();
    return Array.from(this.map!.values());
  }

  entries(): [Key, Value][] {
    if (this.rec !== null || this.tab !== null) this.settle();
    if (this.list) return this.list.map((v, i) => [i, v]);
    return Array.from(this.map!.entries());
  }

  /** Values without copying, for read-only iteration of packed lists (null when not packed). */
  packedValues(): readonly Value[] | null {
    if (this.rec !== null || this.tab !== null) this.settle();
    return this.list;
  }

  /**
   * A lazy record's plain object as it came in (null once settled, or for any other array), for a
   * read-only walk such as json_encode's that needs neither the conversion nor the settled map.
   * The walker must read it as `fromObject` would convert it (own keys in order, values by
   * `fromJS`) and must not write to it.
   */
  recordSource(): Readonly<Record<string, unknown>> | null {
    if (this.tab !== null) this.unpack();
    const plain = this.plain;
    if (plain !== null && this.rec !== null) {
      this.plain = null;
      plain(this.rec);
    }
    return this.rec;
  }

  /** A copy that can be mutated; nested arrays become shared with the original. */
  clone(): PhpArray {
    if (this.rec !== null || this.tab !== null) this.settle();
    const copy = this.list
      ? new PhpArray(this.list.slice(), null, this.next)
      : new PhpArray(null, new Map(this.map!), this.next);
    const vals = copy.list ?? copy.map!.values();
    for (const v of vals) if (v instanceof PhpArray) v.shared = true;
    return copy;
  }

  /** This array if nobody else holds it, else a private copy. */
  forWrite(): PhpArray {
    return this.shared ? this.clone() : this;
  }

  /**
   * A record's value by key, converted on first read. The object is plain data: a function or an
   * object under `__proto__` is what Object.prototype lends it, not a value of its own.
   */
  private recordGet(k: Key): Value {
    const rec = this.rec!;
    // A bigint key reads the property of its digits, as JavaScript converts any key.
    const v = rec[k as string];
    switch (typeof v) {
      case 'string':
      case 'boolean':
        return v;
      case 'number':
        // An integral number past 2^53 is an int the conversion makes exact.
        if ((v < TWO_53 && v > -TWO_53) || !Number.isInteger(v)) return v;
        break;
      case 'undefined':
      case 'function':
        return null;
      case 'object':
        if (v === null || v instanceof PhpArray) return v;
        if (k === '__proto__' && !Object.hasOwn(rec, k)) return null;
        break;
      default:
        break; // objects and the rest: below
    }
    const converted = this.convert!(v);
    if (converted instanceof PhpArray) converted.shared = true;
    rec[k as string] = converted;
    return converted;
  }

  /** A table row's cell by key, converted on first read and written back, as `recordGet` does. */
  private tableGet(k: string): Value {
    const t = this.tab!;
    const j = t.index.get(k);
    if (j === undefined) return null;
    const col = t.cols[j]!;
    const i = this.next as number;
    const v = col[i];
    switch (typeof v) {
      case 'string':
      case 'boolean':
        return v;
      case 'number':
        if ((v < TWO_53 && v > -TWO_53) || !Number.isInteger(v)) return v;
        break;
      case 'undefined':
      case 'function':
        return null;
      case 'object':
        if (v === null || v instanceof PhpArray) return v;
        break;
      default:
        break;
    }
    const converted = t.convert(v);
    if (converted instanceof PhpArray) converted.shared = true;
    col[i] = converted;
    return converted;
  }

  /** A table row into the lazy record of its plain object. */
  private unpack(): void {
    const t = this.tab!;
    this.rec = t.plainRow(this.next as number);
    this.convert = t.convert;
    this.plain = t.plain;
    this.tab = null;
    this.next = -1;
  }

  private recordHas(k: Key): boolean {
    const v = this.rec![k as string];
    if (v === undefined || typeof v === 'function' || k === '__proto__') return Object.hasOwn(this.rec!, k as string);
    return true;
  }

  /** Into list or map storage, as `fromObject` builds it (already converted values kept as they are). */
  private settle(): void {
    if (this.tab !== null) this.unpack();
    const eager = PhpArray.fromObject(this.rec!, this.convert!);
    this.list = eager.list;
    this.map = eager.map;
    this.next = eager.next;
    this.rec = null;
    this.convert = null;
    this.plain = null;
  }

  private toMap(): void {
    const m = new Map<Key, Value>();
    this.list!.forEach((v, i) => m.set(i, v));
    this.map = m;
    this.list = null;
  }
}

/** The next free index after int key k, as PHP keeps it: capped at PHP_INT_MAX. */
function after(k: number | bigint): number | bigint {
  if (typeof k === 'number') return k < Number.MAX_SAFE_INTEGER ? k + 1 : BigInt(k) + 1n;
  return k < INT_MAX ? intOf(k + 1n) : INT_MAX;
}

const CANONICAL_INT = /^(?:0|-?[1-9][0-9]*)$/;

/**
 * PHP array key rules: canonical integer strings within 64 bits become ints ("9007199254740993"
 * is the int key 9007199254740993), floats truncate as (int) does, bools 0/1.
 */
export function normalizeKey(key: unknown): Key {
  // Kept small for the two common cases (a name, a safe int), which every array read takes.
  if (typeof key === 'string') {
    // Only a string starting with a digit or '-' can be an integer key.
    const c = key.charCodeAt(0);
    return (c >= 48 && c <= 57) || c === 45 ? intKeyOf(key) : key;
  }
  if (typeof key === 'number' && Number.isSafeInteger(key)) return key;
  return otherKey(key);
}

function intKeyOf(key: string): Key {
  return key.length <= 20 && CANONICAL_INT.test(key) ? (intOfDecimal(key) ?? key) : key;
}

function otherKey(key: unknown): Key {
  if (typeof key === 'number') return floatToInt(key);
  if (typeof key === 'bigint') return key;
  if (key === true) return 1;
  if (key === false) return 0;
  if (key === null || key === undefined) return '';
  if (typeof key === 'object' && key !== null && 'value' in key) return normalizeKey((key as { value: number }).value);
  return String(key);
}
