/**
 * A GeoIP source for embedders: a table of IP ranges loaded once from the CSV layout the free
 * country databases ship (`start_ip,end_ip,country_code[,...]`: DB-IP Lite with address text,
 * IP2Location LITE with quoted decimal numbers and a country name after the code), answered by
 * binary search. IPv4 and IPv6 live in separate sorted tables; IPv6 addresses are two 64-bit
 * halves. IPv4-mapped IPv6 (`::ffff:a.b.c.d`), in the file or in a question, is IPv4.
 *
 * A line that is not a range is an error naming the line, never skipped: a half-read database
 * would answer wrong countries silently. Ranges marked unknown (`ZZ`, `-`, empty) are left
 * out, so they answer null like gaps. Overlapping ranges are an error.
 */
import { readFile } from 'node:fs/promises';
import type { GeoAdapter } from '../../host-api/host.js';
import { parseIPv4, parseIPv6 } from '../egress/ip-class.js';

/**
 * A bad database, for the embedder. Deliberately without an E_ code: if it ever escapes
 * through the bridge it becomes a bare E_HOST_FAILED, never a message naming a host path.
 */
export class IpRangesError extends Error {}

/** An address as a family and a number (IPv6 as one 128-bit bigint while loading). */
type Addr = { v4: number } | { v6: bigint };

const UNKNOWN = new Set(['', '-', 'ZZ']);
const MASK64 = (1n << 64n) - 1n;

function v6Number(words: readonly number[]): bigint {
  let n = 0n;
  for (const w of words) n = (n << 16n) | BigInt(w);
  return n;
}

/** IPv4-mapped IPv6 (::ffff:0:0/96) is the IPv4 address it carries. */
function unmap(n: bigint): Addr {
  return n >> 32n === 0xffffn ? { v4: Number(n & 0xffffffffn) } : { v6: n };
}

/** Address text as `net.isIP` accepts it, without zone ids. */
export function parseAddress(text: string): Addr | null {
  if (text.length > 64) return null;
  const v4 = parseIPv4(text);
  if (v4 !== null) return { v4 };
  const words = parseIPv6(text);
  return words ? unmap(v6Number(words)) : null;
}

/** A field of the file: address text, or IP2Location's decimal number (IPv4 up to 2^32-1). */
function parseField(field: string): Addr | null {
  if (/^\d{1,39}$/.test(field)) {
    const n = BigInt(field);
    if (n <= 0xffffffffn) return { v4: Number(n) };
    return n < 1n << 128n ? unmap(n) : null;
  }
  return parseAddress(field);
}

/** Splits one CSV line; fields may be double-quoted, with `""` for a quote inside. */
function splitCsv(line: string): string[] | null {
  const out: string[] = [];
  let i = 0;
  for (;;) {
    if (line[i] === '"') {
      let value = '';
      i++;
      for (;;) {
        const q = line.indexOf('"', i);
        if (q < 0) return null;
        value += line.slice(i, q);
        if (line[q + 1] === '"') {
          value += '"';
          i = q + 2;
        } else {
          i = q + 1;
          break;
        }
      }
      out.push(value);
      if (i === line.length) return out;
      if (line[i] !== ',') return null;
      i++;
    } else {
      const c = line.indexOf(',', i);
      out.push(line.slice(i, c < 0 ? line.length : c).trim());
      if (c < 0) return out;
      i = c + 1;
    }
  }
}

function codeIndex(cc: string): number {
  return (cc.charCodeAt(0) - 65) * 26 + (cc.charCodeAt(1) - 65);
}

function codeText(i: number): string {
  return String.fromCharCode(65 + Math.floor(i / 26), 65 + (i % 26));
}

interface Row<N> {
  start: N;
  end: N;
  code: number;
  line: number;
}

function sortAndCheck<N extends number | bigint>(rows: Row<N>[], source: string): void {
  rows.sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
  for (let i = 1; i < rows.length; i++) {
    if (rows[i]!.start <= rows[i - 1]!.end)
      throw new IpRangesError(
        `${source} line ${rows[i]!.line}: the range overlaps the one on line ${rows[i - 1]!.line}`,
      );
  }
}

export class IpRangeTable {
  private constructor(
    private readonly v4Start: Uint32Array,
    private readonly v4End: Uint32Array,
    private readonly v4Code: Uint16Array,
    /** IPv6 bounds as high and low 64-bit halves. */
    private readonly v6StartHi: BigUint64Array,
    private readonly v6StartLo: BigUint64Array,
    private readonly v6EndHi: BigUint64Array,
    private readonly v6EndLo: BigUint64Array,
    private readonly v6Code: Uint16Array,
  ) {}

  /** Builds the table from CSV text; `source` names the file in errors. */
  static fromCsv(text: string, source = 'IP ranges CSV'): IpRangeTable {
    const v4: Row<number>[] = [];
    const v6: Row<bigint>[] = [];
    const lines = text.split('\n');
    lines.forEach((rawLine, i) => {
      const line = rawLine.replace(/\r$/, '');
      const n = i + 1;
      if (line.trim() === '') return;
      const bad = (why: string): never => {
        throw new IpRangesError(`${source} line ${n}: ${why}: ${JSON.stringify(line.slice(0, 80))}`);
      };
      const fields = splitCsv(line) ?? bad('malformed quoting');
      if (n === 1 && /^(start_ip|ip_from|ip_start|start)$/i.test(fields[0]!)) return; // a header
      if (fields.length < 3) bad('expected start_ip,end_ip,country_code');
      const start = parseField(fields[0]!) ?? bad('the start is not an IP address');
      const end = parseField(fields[1]!) ?? bad('the end is not an IP address');
      const cc = fields[2]!.toUpperCase();
      // Unknown rows are dropped unchecked beyond their addresses: IP2Location's cover whole
      // gaps, one of them from 0 across the IPv4-mapped block.
      if (UNKNOWN.has(cc)) return;
      if (!/^[A-Z]{2}$/.test(cc)) bad('the country is not a two-letter code');
      if ('v4' in start && 'v4' in end) {
        if (start.v4 > end.v4) bad('the start is after the end');
        v4.push({ start: start.v4, end: end.v4, code: codeIndex(cc), line: n });
      } else if ('v6' in start && 'v6' in end) {
        if (start.v6 > end.v6) bad('the start is after the end');
        v6.push({ start: start.v6, end: end.v6, code: codeIndex(cc), line: n });
      } else {
        bad('the start and the end are of different IP versions');
      }
    });
    sortAndCheck(v4, source);
    sortAndCheck(v6, source);
    return new IpRangeTable(
      Uint32Array.from(v4, (r) => r.start),
      Uint32Array.from(v4, (r) => r.end),
      Uint16Array.from(v4, (r) => r.code),
      BigUint64Array.from(v6, (r) => r.start >> 64n),
      BigUint64Array.from(v6, (r) => r.start & MASK64),
      BigUint64Array.from(v6, (r) => r.end >> 64n),
      BigUint64Array.from(v6, (r) => r.end & MASK64),
      Uint16Array.from(v6, (r) => r.code),
    );
  }

  /** Reads and builds the table from a file (UTF-8 or ASCII text). */
  static async load(path: string): Promise<IpRangeTable> {
    return IpRangeTable.fromCsv(await readFile(path, 'utf8'), path);
  }

  /** Ranges held, IPv4 and IPv6. */
  get size(): { v4: number; v6: number } {
    return { v4: this.v4Start.length, v6: this.v6Code.length };
  }

  /** The upper-case country code of an address, or null (unknown, a gap, or not an IP address). */
  countryOf(ip: string): string | null {
    const a = parseAddress(ip);
    if (!a) return null;
    return 'v4' in a ? this.lookupV4(a.v4) : this.lookupV6(a.v6 >> 64n, a.v6 & MASK64);
  }

  private lookupV4(n: number): string | null {
    // The last range starting at or before n.
    let lo = 0;
    let hi = this.v4Start.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      if (this.v4Start[mid]! <= n) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found >= 0 && n <= this.v4End[found]! ? codeText(this.v4Code[found]!) : null;
  }

  private lookupV6(h: bigint, l: bigint): string | null {
    let lo = 0;
    let hi = this.v6Code.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const sh = this.v6StartHi[mid]!;
      if (sh < h || (sh === h && this.v6StartLo[mid]! <= l)) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    if (found < 0) return null;
    const eh = this.v6EndHi[found]!;
    return h < eh || (h === eh && l <= this.v6EndLo[found]!) ? codeText(this.v6Code[found]!) : null;
  }
}

/** The GeoAdapter (HostAdapters.geo) over a loaded table. */
export function ipRangesGeo(table: IpRangeTable): GeoAdapter {
  return { countryOf: async (ip) => table.countryOf(ip) };
}
