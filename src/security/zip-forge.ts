/**
 * A zip writer for the security harness (cases/fs-archives.ts) and the tests, which must say
 * what no honest library writes: raw name bytes with or without the UTF-8 flag, Unix file types
 * in the external attributes, declared sizes and CRCs that lie, encrypted flags, precomputed
 * deflate streams (bombs). Sizes and offsets below 4 GiB;
 * past 65,535 entries the count goes in a ZIP64 end of central directory record.
 */
import zlib from 'node:zlib';

export interface ForgeEntry {
  /** The stored name: a string (UTF-8) or raw bytes. */
  name: string | Uint8Array;
  /** The content (default empty). */
  data?: Uint8Array;
  /** The general purpose bit 11 (default: set for a non-ASCII string name). */
  utf8Flag?: boolean;
  /** 0 stored, 8 deflated (default 8). */
  method?: number;
  /** The bytes stored instead of deflating `data` (a bomb's stream). */
  compressed?: Uint8Array;
  /** Uncompressed size written in the headers (default: data's length). */
  declaredSize?: number;
  /** Compressed size written in the headers (default: the stored bytes' length). */
  declaredCompressedSize?: number;
  /** CRC-32 written in the headers (default: data's). */
  crc?: number;
  /** Unix mode (file type and permissions) in the external attributes; marks the entry made on Unix. */
  unixMode?: number;
  /** Sets the encryption bit (the data is not encrypted: readers must refuse before trying). */
  encrypted?: boolean;
}

const DOS_TIME = 0;
const DOS_DATE = ((2024 - 1980) << 9) | (1 << 5) | 1;

function nameBytes(e: ForgeEntry): Buffer {
  return typeof e.name === 'string' ? Buffer.from(e.name, 'utf8') : Buffer.from(e.name);
}

interface EntryFields {
  flags: number;
  method: number;
  crc: number;
  csize: number;
  size: number;
  nameLength: number;
}

/**
 * The fields the local header and the central directory record share, in the same order: from
 * the general-purpose flags to the name's length (offset 6 in the one, 8 in the other).
 */
function writeEntryFields(b: Buffer, at: number, f: EntryFields): void {
  b.writeUInt16LE(f.flags, at);
  b.writeUInt16LE(f.method, at + 2);
  b.writeUInt16LE(DOS_TIME, at + 4);
  b.writeUInt16LE(DOS_DATE, at + 6);
  b.writeUInt32LE(f.crc >>> 0, at + 8);
  b.writeUInt32LE(f.csize, at + 12);
  b.writeUInt32LE(f.size, at + 16);
  b.writeUInt16LE(f.nameLength, at + 20);
}

export function forgeZip(entries: readonly ForgeEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const data = Buffer.from(e.data ?? new Uint8Array(0));
    const method = e.method ?? 8;
    const stored = Buffer.from(e.compressed ?? (method === 8 ? zlib.deflateRawSync(data) : data));
    const name = nameBytes(e);
    const flags =
      ((e.utf8Flag ?? (typeof e.name === 'string' && /[^\x00-\x7f]/.test(e.name))) ? 0x800 : 0) | (e.encrypted ? 1 : 0);
    const crc = e.crc ?? zlib.crc32(data);
    const size = e.declaredSize ?? data.length;
    const csize = e.declaredCompressedSize ?? stored.length;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    const fields = { flags, method, crc, csize, size, nameLength: name.length };
    writeEntryFields(local, 6, fields);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(e.unixMode !== undefined ? (3 << 8) | 20 : 20, 4);
    central.writeUInt16LE(20, 6);
    writeEntryFields(central, 8, fields);
    central.writeUInt32LE(e.unixMode !== undefined ? (e.unixMode << 16) >>> 0 : 0, 38);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, stored);
    centrals.push(central, name);
    offset += local.length + name.length + stored.length;
  }
  const cd = Buffer.concat(centrals);
  const zip64 = entries.length > 0xfffe;
  const eocd = Buffer.alloc(22);
  eocd.writeUInt32LE(0x06054b50, 0);
  eocd.writeUInt16LE(zip64 ? 0xffff : entries.length, 8);
  eocd.writeUInt16LE(zip64 ? 0xffff : entries.length, 10);
  eocd.writeUInt32LE(cd.length, 12);
  eocd.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, ...(zip64 ? zip64End(entries.length, cd.length, offset) : []), eocd]);
}

/** The ZIP64 end of central directory record and its locator, right after the central directory. */
function zip64End(count: number, cdSize: number, cdOffset: number): Buffer[] {
  const rec = Buffer.alloc(56);
  rec.writeUInt32LE(0x06064b50, 0);
  rec.writeBigUInt64LE(44n, 4);
  rec.writeUInt16LE(45, 12);
  rec.writeUInt16LE(45, 14);
  rec.writeBigUInt64LE(BigInt(count), 24);
  rec.writeBigUInt64LE(BigInt(count), 32);
  rec.writeBigUInt64LE(BigInt(cdSize), 40);
  rec.writeBigUInt64LE(BigInt(cdOffset), 48);
  const locator = Buffer.alloc(20);
  locator.writeUInt32LE(0x07064b50, 0);
  locator.writeBigUInt64LE(BigInt(cdOffset + cdSize), 8);
  locator.writeUInt32LE(1, 16);
  return [rec, locator];
}

/**
 * A raw deflate stream that inflates to `mib` MiB of zeros, about 1 KB a MiB: one fully flushed
 * block repeated (each stands alone), then an empty final block. Built in microseconds.
 */
export function zerosDeflate(mib: number): Buffer {
  const block = zlib.deflateRawSync(Buffer.alloc(1 << 20), { level: 9, finishFlush: zlib.constants.Z_FULL_FLUSH });
  return Buffer.concat([...new Array<Buffer>(mib).fill(block), Buffer.from([0x03, 0x00])]);
}
