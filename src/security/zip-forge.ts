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
const DOS_DATE = (2024 - 1980) << 9 | 1 << 5 | 1;

function nameBytes(e: ForgeEntry): Buffer {
  return typeof e.name === 'string' ? Buffer.from(e.name, 'utf8') : Buffer.from(e.name);
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
    const flags = (e.utf8Flag ?? (typeof e.name === 'string' && /[^\x00-\x7f]/.test(e.name)) ? 0x800 : 0) | (e.encrypted ? 1 : 0);
    const crc = e.crc ?? zlib.crc32(data);
    const size = e.declaredSize ?? data.length;
    const csize = e.declaredCompressedSize ?? stored.length;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(flags, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt16LE(DOS_TIME, 10);
    local.writeUInt16LE(DOS_DATE, 12);
    local.writeUInt32LE(crc >>> 0, 14);
    local.writeUInt32LE(csize, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(e.unixMode !== undefined ? (3 << 8) | 20 : 20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(flags, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt16LE(DOS_TIME, 12);
    central.writeUInt16LE(DOS_DATE, 14);
    central.writeUInt32LE(crc >>> 0, 16);
    central.writeUInt32LE(csize, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
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
