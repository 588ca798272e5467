/**
 * Reading a file: whole (read_file, put_file's and copy_s3_temp_file's source) or line by line.
 * The file is opened through OpenAt (no link, regular files only, inside the root); a file with
 * several hard links is refused, and a size cap is checked against the opened file, then again
 * while reading (it may grow meanwhile).
 */

import { constants as C } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { FileError, hardLinkDenied, translateFsError } from './errors.js';
import type { FileStream } from './file-store.js';
import type { OpenAt } from './openat.js';
import type { VirtualPath } from './virtual-path.js';

const CHUNK = 64 * 1024;

/** Whole file, at most `max` bytes (E_SIZE_LIMIT otherwise), read in chunks. `p` is canonical and not a root. */
export async function readFile(at: OpenAt, p: VirtualPath, max: number): Promise<Uint8Array> {
  const { dir, name } = await at.parentOf(p);
  let fh: FileHandle | undefined;
  try {
    const o = await at.openFile(dir, name, C.O_RDONLY, p);
    fh = o.fh;
    if (o.st.nlink > 1) throw hardLinkDenied(p.text);
    if (o.st.size > max) throw tooLarge(p, max);
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const want = Math.min(CHUNK, max + 1 - total);
      const buf = Buffer.allocUnsafe(Math.max(want, 1));
      const { bytesRead } = await fh.read(buf, 0, buf.length, null);
      if (bytesRead === 0) break;
      total += bytesRead;
      if (total > max) throw tooLarge(p, max);
      chunks.push(bytesRead === buf.length ? buf : buf.subarray(0, bytesRead));
    }
    const out = Buffer.concat(chunks, total);
    return new Uint8Array(out.buffer, out.byteOffset, out.length);
  } catch (e) {
    throw translateFsError(e, p, 'read');
  } finally {
    await fh?.close().catch(() => undefined);
    await dir.close();
  }
}

/**
 * Lines of a text file, split on LF with a trailing CR removed, decoded as UTF-8 (invalid bytes
 * become U+FFFD). Each line at most `maxLineBytes` (without its terminator), the whole read at
 * most `maxBytes`: E_SIZE_LIMIT otherwise. `p` is canonical and not a root.
 */
export async function* readFileLines(
  at: OpenAt,
  p: VirtualPath,
  maxBytes: number,
  maxLineBytes: number,
): AsyncGenerator<string, void, undefined> {
  const { dir, name } = await at.parentOf(p);
  let fh: FileHandle | undefined;
  const dec = new TextDecoder('utf-8');
  const lineTooLong = () =>
    new FileError('E_SIZE_LIMIT', p.text, `a line is longer than ${maxLineBytes} bytes`, { reason: 'line-limit' });
  const withoutCr = (bytes: Buffer): Buffer =>
    bytes.length > 0 && bytes[bytes.length - 1] === 0x0d ? bytes.subarray(0, bytes.length - 1) : bytes;
  try {
    try {
      const opened = await at.openFile(dir, name, C.O_RDONLY, p);
      fh = opened.fh;
      if (opened.st.nlink > 1) throw hardLinkDenied(p.text);
    } catch (e) {
      throw translateFsError(e, p, 'read');
    }
    let pending: Buffer = Buffer.alloc(0);
    let total = 0;
    const buf = Buffer.allocUnsafe(CHUNK);
    for (;;) {
      let bytesRead: number;
      try {
        ({ bytesRead } = await fh.read(buf, 0, buf.length, null));
      } catch (e) {
        throw translateFsError(e, p, 'read');
      }
      if (bytesRead === 0) break;
      total += bytesRead;
      if (total > maxBytes) throw tooLarge(p, maxBytes);
      let data = Buffer.concat([pending, buf.subarray(0, bytesRead)]);
      let nl: number;
      while ((nl = data.indexOf(0x0a)) >= 0) {
        const line = withoutCr(data.subarray(0, nl));
        data = data.subarray(nl + 1);
        if (line.length > maxLineBytes) throw lineTooLong();
        yield dec.decode(line);
      }
      // What is left has no LF yet; one byte more than the cap may still be a CR before it.
      if (data.length > maxLineBytes + 1) throw lineTooLong();
      pending = Buffer.from(data);
    }
    if (pending.length > 0) {
      const line = withoutCr(pending);
      if (line.length > maxLineBytes) throw lineTooLong();
      yield dec.decode(line);
    }
  } finally {
    await fh?.close().catch(() => undefined);
    await dir.close();
  }
}

/**
 * The file opened as `readFile` opens it (same checks, same cap against its size when opened and
 * while reading), its bytes read one chunk at a time as the caller consumes them.
 */
export async function openFileStream(at: OpenAt, p: VirtualPath, max: number): Promise<FileStream> {
  const { dir, name } = await at.parentOf(p);
  let fh: FileHandle | undefined;
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await fh?.close().catch(() => undefined);
    await dir.close();
  };
  let size: number;
  try {
    const o = await at.openFile(dir, name, C.O_RDONLY, p);
    fh = o.fh;
    if (o.st.nlink > 1) throw hardLinkDenied(p.text);
    if (o.st.size > max) throw tooLarge(p, max);
    size = o.st.size;
  } catch (e) {
    await close();
    throw translateFsError(e, p, 'read');
  }
  const file = fh;
  async function* chunks(): AsyncGenerator<Uint8Array, void, undefined> {
    let total = 0;
    try {
      for (;;) {
        const buf = Buffer.allocUnsafe(CHUNK);
        let bytesRead: number;
        try {
          ({ bytesRead } = await file.read(buf, 0, buf.length, null));
        } catch (e) {
          throw translateFsError(e, p, 'read');
        }
        if (bytesRead === 0) return;
        total += bytesRead;
        if (total > max) throw tooLarge(p, max);
        yield buf.subarray(0, bytesRead);
      }
    } finally {
      await close();
    }
  }
  return { size, chunks: chunks(), close };
}

function tooLarge(p: VirtualPath, max: number): FileError {
  return new FileError('E_SIZE_LIMIT', p.text, `larger than ${max} bytes`, { reason: 'read-limit' });
}
