/**
 * {gzip file_url=... dest=...}: one `/files/g/` file or https URL compressed with node:zlib into
 * `/files/g/`, its path in gzip_dest. dest (docs/decisions.md D78): a file path; a path ending in
 * `/` is a folder, the source's name + `.gz` inside it; omitted, the source path + `.gz` for a
 * `/files/g/` source and a fresh name under /files/g/archives for a URL. What is there is replaced
 * (the spec gives gzip no overwrite). The source is at most MAX_ARCHIVE_INPUT_BYTES.
 */
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { implement } from '../plugin-contract.js';
import { joinSegment, parseVirtualPath, type VirtualPath } from '../../host-adapters/files/virtual-path.js';
import { checkBucket, tenantFiles } from '../files/common.js';
import { callbackOf, queueCallback } from '../callback-batch.js';
import { readSource, sourceRef, type SourceRef } from './source.js';
import { destAttr, freshDest } from './dest.js';
import { MAX_ARCHIVE_INPUT_BYTES } from './limits.js';
import { checkRender } from '../../host-api/render-signal.js';
import declaration from '../../plugins/host-archives/gzip.js';

/** Input handed to zlib per write: the stream stops between two of them once the render ends. */
const CHUNK_BYTES = 1 << 20;

/** `bytes` gzipped as zlib.gzip does, on a stream that the render's end destroys (D152). */
async function gzipWithin(bytes: Uint8Array, signal: AbortSignal): Promise<Buffer> {
  const input = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const chunks: Buffer[] = [];
  const sink = new Writable({
    write(c: Buffer, _encoding, done) {
      chunks.push(c);
      done();
    },
  });
  await pipeline(
    Readable.from(
      (function* () {
        for (let at = 0; at < input.length; at += CHUNK_BYTES) yield input.subarray(at, at + CHUNK_BYTES);
      })(),
    ),
    zlib.createGzip(),
    sink,
    { signal },
  );
  return Buffer.concat(chunks);
}

/** The source's own name: the last segment of its path, or of its URL's path. */
function sourceName(src: SourceRef): string {
  if ('path' in src) return src.path.segments.at(-1) ?? 'file';
  return new URL(src.url).pathname.split('/').at(-1) || 'download';
}

function destOf(src: SourceRef, given: VirtualPath | null): VirtualPath {
  if (given?.trailingSlash) return joinSegment(given, `${sourceName(src)}.gz`, { plugin: 'gzip', attr: 'dest' });
  if (given) return given;
  return 'path' in src
    ? parseVirtualPath(`${src.path.text}.gz`, { plugin: 'gzip', attr: 'file_url' })
    : freshDest('.gz');
}

export const gzip = implement(declaration, async (attrs, call) => {
  const callback = callbackOf('gzip', attrs, call);
  checkBucket('gzip', attrs);
  const src = sourceRef('gzip', 'file_url', attrs.file_url, call);
  const dest = destOf(src, destAttr('gzip', attrs));
  const files = tenantFiles(call, 'gzip');
  const bytes = await readSource('gzip', src, MAX_ARCHIVE_INPUT_BYTES, call);
  const packed = await gzipWithin(bytes, call.signal).catch((e: unknown) => {
    checkRender(call.signal, '{gzip}');
    throw e;
  });
  checkRender(call.signal, '{gzip}');
  await files.writeAtomic(dest, packed);
  if (callback) await queueCallback('gzip', callback, call, `wrote ${dest.text}`);
  return { assign: [['gzip_dest', dest.text]] };
});
