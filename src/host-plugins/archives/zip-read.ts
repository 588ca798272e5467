/**
 * Reading a zip for {unzip}, on yauzl: the central directory is read and judged whole before any
 * entry is inflated (plan), then every entry is inflated once to prove it (verify), and only
 * then inflated again to be written. Inflating stops at the cap, at the size the entry declares
 * (yauzl's validateEntrySizes) and when the render's time is up; the CRC-32 is checked too.
 * Nested archives are bytes like any other: nothing here looks inside an entry.
 */
import type { TextDecoder } from 'node:util';
import zlib from 'node:zlib';
import yauzl from 'yauzl';
import type { BridgeCall } from '../plugin-contract.js';
import { checkRender } from '../../host-api/render-signal.js';
import { BridgeError } from '../../host-api/errors.js';
import { FileError } from '../../host-adapters/files/errors.js';
import type { VirtualPath } from '../../host-adapters/files/virtual-path.js';
import { decodeName, entryKind, PathSet, verdict } from './names.js';
import {
  MAX_ARCHIVE_ENTRIES,
  MAX_COMPRESSION_RATIO,
  MAX_ENTRY_BYTES,
  MAX_UNZIP_TOTAL_BYTES,
  MAX_RATIO_EXEMPT_BYTES,
} from './limits.js';

export interface Planned {
  entry: yauzl.Entry;
  name: string;
  path: VirtualPath;
}

export interface Plan {
  zip: yauzl.ZipFile;
  files: Planned[];
  skipped: { name: string; reason: string }[];
}

const UTF8_FLAG = 0x800;

function unreadable(detail: string): BridgeError {
  return new BridgeError('E_FILE_FAILED', `{unzip} the source is not a zip archive this host can read (${detail})`);
}

/** The zip's reason in a form that names no host detail (yauzl's messages are about the format only). */
function yauzlReason(e: unknown): string {
  return e instanceof Error ? e.message.slice(0, 160) : 'unreadable';
}

export function checkTime(call: BridgeCall, what: string): void {
  checkRender(call.signal, `{unzip} ${what}`);
  if (call.timeLeft() <= 0) throw new BridgeError('E_WALL_TIMEOUT', `{unzip} the render's time ran out while ${what}`);
}

/** Opens the archive and judges every entry of its central directory (names, kinds, declared sizes, ratio). */
export async function planArchive(
  bytes: Uint8Array,
  order: readonly TextDecoder[],
  dest: VirtualPath,
  call: BridgeCall,
): Promise<Plan> {
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.fromBufferPromise(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), {
      lazyEntries: true,
      decodeStrings: false,
      validateEntrySizes: true,
      autoClose: false,
    });
  } catch (e) {
    throw unreadable(yauzlReason(e));
  }
  if (zip.entryCount > MAX_ARCHIVE_ENTRIES) {
    zip.close();
    throw new BridgeError(
      'E_SIZE_LIMIT',
      `{unzip} the archive has ${zip.entryCount} entries, more than ${MAX_ARCHIVE_ENTRIES}`,
    );
  }
  const files: Planned[] = [];
  const skipped: Plan['skipped'] = [];
  const paths = new PathSet();
  let total = 0;
  try {
    for await (const entry of zip.eachEntry()) {
      checkTime(call, 'reading the archive');
      const raw = entry.fileNameRaw;
      const name = decodeName(raw, (entry.generalPurposeBitFlag & UTF8_FLAG) !== 0, order);
      const v = verdict(name, entryKind(name, entry.externalFileAttributes), dest);
      if ('skip' in v) {
        skipped.push({ name, reason: v.skip });
        continue;
      }
      if (entry.isEncrypted()) throw unreadable(`${JSON.stringify(name)} is encrypted`);
      if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8)
        throw unreadable(`${JSON.stringify(name)} uses compression method ${entry.compressionMethod}`);
      const size = entry.uncompressedSize;
      if (size > MAX_ENTRY_BYTES)
        throw new BridgeError(
          'E_SIZE_LIMIT',
          `{unzip} ${JSON.stringify(name)} declares ${size} bytes, more than ${MAX_ENTRY_BYTES}`,
        );
      total += size;
      if (total > MAX_UNZIP_TOTAL_BYTES)
        throw new BridgeError(
          'E_SIZE_LIMIT',
          `{unzip} the entries declare more than ${MAX_UNZIP_TOTAL_BYTES} bytes in all`,
        );
      if (size > MAX_RATIO_EXEMPT_BYTES && size / Math.max(1, entry.compressedSize) > MAX_COMPRESSION_RATIO) {
        throw new BridgeError(
          'E_SIZE_LIMIT',
          `{unzip} ${JSON.stringify(name)} is compressed more than ${MAX_COMPRESSION_RATIO}:1 (a zip bomb?)`,
        );
      }
      paths.add(v.write, name);
      files.push({ entry, name, path: v.write });
    }
  } catch (e) {
    zip.close();
    if (e instanceof BridgeError || e instanceof FileError) throw e;
    throw unreadable(yauzlReason(e));
  }
  return { zip, files, skipped };
}

/**
 * Inflates one entry, handing each chunk to `take`: never more than the entry declares (which the
 * plan capped), the CRC-32 checked at the end.
 */
export async function inflate(plan: Plan, f: Planned, call: BridgeCall, take: (chunk: Buffer) => void): Promise<void> {
  const { entry, name } = f;
  let stream: NodeJS.ReadableStream;
  try {
    stream = await plan.zip.openReadStreamPromise(entry);
  } catch (e) {
    throw unreadable(`${JSON.stringify(name)}: ${yauzlReason(e)}`);
  }
  let crc = 0;
  let n = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      n += chunk.length;
      if (n > entry.uncompressedSize)
        throw new BridgeError(
          'E_SIZE_LIMIT',
          `{unzip} ${JSON.stringify(name)} holds more than the ${entry.uncompressedSize} bytes it declares`,
        );
      checkTime(call, `inflating ${JSON.stringify(name)}`);
      crc = zlib.crc32(chunk, crc);
      take(chunk);
    }
  } catch (e) {
    (stream as NodeJS.ReadableStream & { destroy?(): void }).destroy?.();
    if (e instanceof BridgeError) throw e;
    const reason = yauzlReason(e);
    if (reason.startsWith('too many bytes'))
      throw new BridgeError(
        'E_SIZE_LIMIT',
        `{unzip} ${JSON.stringify(name)} holds more than the ${entry.uncompressedSize} bytes it declares`,
      );
    throw unreadable(`${JSON.stringify(name)}: ${reason}`);
  }
  if (crc >>> 0 !== entry.crc32 >>> 0) throw unreadable(`${JSON.stringify(name)} fails its CRC-32 check`);
}

/** One entry's content, in one buffer of the size it declares. */
export async function entryBytes(plan: Plan, f: Planned, call: BridgeCall): Promise<Uint8Array> {
  const out = Buffer.allocUnsafe(f.entry.uncompressedSize);
  let at = 0;
  await inflate(plan, f, call, (chunk) => {
    chunk.copy(out, at);
    at += chunk.length;
  });
  if (at !== out.length) throw unreadable(`${JSON.stringify(f.name)} holds fewer bytes than it declares`);
  return out;
}
