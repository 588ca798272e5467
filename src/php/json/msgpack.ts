/**
 * msgpack_pack / msgpack_unpack as the PHP msgpack extension (2.x, php_only mode) does them:
 * smallest integer encodings, floats as float64, lists (keys 0..n-1 with nothing appended
 * past them) as arrays and other arrays as maps, stdClass as a map whose first entry is
 * nil => "stdClass". Written out here because the isolate has no msgpack library, and the
 * extension's class marker and key conversions are its own.
 */
import { PhpArray, PhpFloat, PhpObject, type Key, type PhpInt, type Value, float, isInt } from '../../value/value.js';
import { INT_MAX, intOf } from '../../value/int64.js';
import { toStr } from '../../value/convert.js';
import { fromBytes, toBytes } from '../../value/bytes.js';
import { checkStringLength, MAX_STRING_LENGTH } from '../../value/limits.js';

class ByteWriter {
  private buf = new Uint8Array(64);
  private len = 0;

  /**
   * The packed bytes become a string of as many characters, so they are held to the string
   * size limit before the buffer grows: doubling past it asked V8 for an ArrayBuffer it could
   * not allocate, a RangeError that named no template line.
   */
  private room(n: number): void {
    if (this.len + n <= this.buf.length) return;
    checkStringLength(this.len + n, 'msgpack_pack');
    let size = this.buf.length * 2;
    while (size < this.len + n) size *= 2;
    size = Math.min(size, MAX_STRING_LENGTH);
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.len));
    this.buf = next;
  }

  byte(b: number): void {
    this.room(1);
    this.buf[this.len++] = b;
  }

  /** A type byte, then its big-endian unsigned integer of `n` bytes (a length or a value). */
  typed(type: number, v: number | bigint, n: number): void {
    this.byte(type);
    this.uint(v, n);
  }

  /** A big-endian unsigned integer of `n` bytes. */
  uint(v: number | bigint, n: number): void {
    this.room(n);
    let x = BigInt.asUintN(n * 8, BigInt(v));
    for (let i = n - 1; i >= 0; i--) {
      this.buf[this.len + i] = Number(x & 0xffn);
      x >>= 8n;
    }
    this.len += n;
  }

  bytes(b: Uint8Array): void {
    this.room(b.length);
    this.buf.set(b, this.len);
    this.len += b.length;
  }

  get size(): number {
    return this.len;
  }

  result(): Uint8Array {
    return this.buf.slice(0, this.len);
  }
}

function packInt(w: ByteWriter, n: PhpInt): void {
  if (typeof n === 'bigint') w.typed(n > 0n ? 0xcf : 0xd3, n, 8);
  else if (n >= 0) {
    if (n < 0x80) w.byte(n);
    else if (n < 0x100) w.typed(0xcc, n, 1);
    else if (n < 0x10000) w.typed(0xcd, n, 2);
    else if (n < 0x100000000) w.typed(0xce, n, 4);
    else w.typed(0xcf, n, 8);
  } else if (n >= -32) w.byte(n & 0xff);
  else if (n >= -0x80) w.typed(0xd0, n, 1);
  else if (n >= -0x8000) w.typed(0xd1, n, 2);
  else if (n >= -0x80000000) w.typed(0xd2, n, 4);
  else w.typed(0xd3, BigInt(n), 8);
}

function packDouble(w: ByteWriter, d: number): void {
  const dv = new DataView(new ArrayBuffer(8));
  dv.setFloat64(0, d);
  w.byte(0xcb);
  w.bytes(new Uint8Array(dv.buffer));
}

function packString(w: ByteWriter, s: string): void {
  // Before toBytes: a string has at least as many bytes as characters.
  checkStringLength(w.size + s.length, 'msgpack_pack');
  const b = toBytes(s);
  const n = b.length;
  if (n < 32) w.byte(0xa0 | n);
  else if (n < 0x100) w.typed(0xd9, n, 1);
  else if (n < 0x10000) w.typed(0xda, n, 2);
  else w.typed(0xdb, n, 4);
  w.bytes(b);
}

function header(w: ByteWriter, n: number, fix: number, b16: number): void {
  if (n < 16) w.byte(fix | n);
  else if (n < 0x10000) w.typed(b16, n, 2);
  else w.typed(b16 + 1, n, 4);
}

/** The extension's rule: a list only if count == next free index and keys run 0, 1, 2... */
function packsAsList(a: PhpArray): boolean {
  if (a.size !== a.nextIndex) return false;
  let i = 0;
  for (const k of a.keys()) if (k !== i++) return false;
  return true;
}

function packValue(w: ByteWriter, v: Value): void {
  if (v === null || v === undefined) w.byte(0xc0);
  else if (typeof v === 'boolean') w.byte(v ? 0xc3 : 0xc2);
  else if (isInt(v)) packInt(w, v);
  else if (typeof v === 'number') packDouble(w, v);
  else if (v instanceof PhpFloat) packDouble(w, v.value);
  else if (typeof v === 'string') packString(w, v);
  else if (v instanceof PhpArray) {
    if (packsAsList(v)) {
      header(w, v.size, 0x90, 0xdc);
      for (const x of v.values()) packValue(w, x);
    } else {
      header(w, v.size, 0x80, 0xde);
      for (const [k, x] of v.entries()) {
        if (typeof k === 'string') packString(w, k);
        else packInt(w, k);
        packValue(w, x);
      }
    }
  } else if (v instanceof PhpObject) {
    header(w, v.props.size + 1, 0x80, 0xde);
    w.byte(0xc0);
    packString(w, 'stdClass');
    for (const [k, x] of v.props) {
      packString(w, k);
      packValue(w, x);
    }
  }
}

/** msgpack_pack(): the packed bytes. */
export function msgpackPack(v: Value): Uint8Array {
  const w = new ByteWriter();
  packValue(w, v);
  return w.result();
}

class Truncated extends Error {}

const MAX_NESTING = 10000;
/** Marks a map whose nil key had no class name: the extension returns null for it. */
const BROKEN = Symbol('broken');

class Reader {
  pos = 0;
  private nesting = 0;
  constructor(private readonly b: Uint8Array) {}

  private need(n: number): void {
    if (this.pos + n > this.b.length) throw new Truncated();
  }

  private uint(n: number): number {
    this.need(n);
    let x = 0;
    for (let i = 0; i < n; i++) x = x * 256 + this.b[this.pos++];
    return x;
  }

  private int(n: number): number {
    const u = this.uint(n);
    const half = 2 ** (n * 8 - 1);
    return u >= half ? u - 2 * half : u;
  }

  private bigUint64(): bigint {
    this.need(8);
    let x = 0n;
    for (let i = 0; i < 8; i++) x = (x << 8n) | BigInt(this.b[this.pos++]);
    return x;
  }

  private raw(n: number): string {
    this.need(n);
    const s = fromBytes(this.b.subarray(this.pos, this.pos + n));
    this.pos += n;
    return s;
  }

  private floatBits(n: 4 | 8): number {
    this.need(n);
    const dv = new DataView(this.b.buffer, this.b.byteOffset + this.pos, n);
    this.pos += n;
    return n === 4 ? dv.getFloat32(0) : dv.getFloat64(0);
  }

  value(): Value | typeof BROKEN {
    this.need(1);
    const c = this.b[this.pos++];
    if (c <= 0x7f) return c;
    if (c >= 0xe0) return c - 0x100;
    if (c >= 0xa0 && c <= 0xbf) return this.raw(c & 0x1f);
    if (c >= 0x90 && c <= 0x9f) return this.array(c & 0x0f);
    if (c >= 0x80 && c <= 0x8f) return this.map(c & 0x0f);
    switch (c) {
      case 0xc0:
        return null;
      case 0xc2:
        return false;
      case 0xc3:
        return true;
      case 0xc4:
      case 0xd9:
        return this.raw(this.uint(1));
      case 0xc5:
      case 0xda:
        return this.raw(this.uint(2));
      case 0xc6:
      case 0xdb:
        return this.raw(this.uint(4));
      case 0xca:
        return float(this.floatBits(4));
      case 0xcb:
        return float(this.floatBits(8));
      case 0xcc:
        return this.uint(1);
      case 0xcd:
        return this.uint(2);
      case 0xce:
        return this.uint(4);
      case 0xcf: {
        const u = this.bigUint64();
        // Past PHP_INT_MAX the extension gives the decimal digits as a string.
        return u > INT_MAX ? u.toString() : intOf(u);
      }
      case 0xd0:
        return this.int(1);
      case 0xd1:
        return this.int(2);
      case 0xd2:
        return this.int(4);
      case 0xd3: {
        const u = this.bigUint64();
        return intOf(BigInt.asIntN(64, u));
      }
      case 0xdc:
        return this.array(this.uint(2));
      case 0xdd:
        return this.array(this.uint(4));
      case 0xde:
        return this.map(this.uint(2));
      case 0xdf:
        return this.map(this.uint(4));
      // Extension types are skipped and read as null.
      case 0xd4:
        return this.skip(2);
      case 0xd5:
        return this.skip(3);
      case 0xd6:
        return this.skip(5);
      case 0xd7:
        return this.skip(9);
      case 0xd8:
        return this.skip(17);
      case 0xc7:
        return this.skip(this.uint(1) + 1);
      case 0xc8:
        return this.skip(this.uint(2) + 1);
      case 0xc9:
        return this.skip(this.uint(4) + 1);
    }
    throw new Error('parse error'); // 0xc1, never used
  }

  private skip(n: number): null {
    this.need(n);
    this.pos += n;
    return null;
  }

  private child(): Value {
    const v = this.value();
    return v === BROKEN ? null : v;
  }

  private enter(): void {
    if (++this.nesting > MAX_NESTING) throw new Error('too deep');
  }

  private array(n: number): Value {
    this.enter();
    // Each element takes at least one byte: a count beyond the data is a truncated input.
    this.need(n);
    const list: Value[] = [];
    for (let i = 0; i < n; i++) list.push(this.child());
    this.nesting--;
    return PhpArray.fromList(list);
  }

  private map(n: number): Value | typeof BROKEN {
    this.enter();
    this.need(n * 2);
    const arr = PhpArray.empty();
    let className: string | null = null;
    let broken = false;
    for (let i = 0; i < n; i++) {
      const k = this.child();
      const v = this.child();
      if (k === null) {
        if (className !== null) continue;
        if (typeof v === 'string') className = v;
        else broken = true;
        continue;
      }
      arr.set(mapKey(k), v);
    }
    this.nesting--;
    if (broken && className === null) return BROKEN;
    if (className === null) return arr;
    const obj = new PhpObject();
    if (className !== 'stdClass') obj.set('__PHP_Incomplete_Class_Name', className);
    for (const [k, v] of arr.entries()) obj.set(String(k), v);
    return obj;
  }
}

function mapKey(k: Value): Key {
  if (typeof k === 'string' || isInt(k)) return k;
  if (k instanceof PhpArray) return 'Array';
  return toStr(k);
}

/** msgpack_unpack(): the value, or false when the data is malformed or cut short. */
export function msgpackUnpack(data: string): Value {
  const b = toBytes(data);
  if (b.length === 0) return null;
  try {
    const v = new Reader(b).value();
    return v === BROKEN ? null : v;
  } catch {
    return false;
  }
}
