/**
 * Response bodies: streamed, decoded (gzip, deflate, br) through node:zlib streams, and
 * counted AFTER decoding, so a decompression bomb stops at the cap with only about one
 * chunk of overshoot in memory.
 */
import { Readable, pipeline } from 'node:stream';
import zlib from 'node:zlib';
import { EgressError } from './errors.js';

/** Content codings decoded here; `identity` is dropped from the list. */
const KNOWN = new Set(['gzip', 'x-gzip', 'deflate', 'br']);

/** Nested codings accepted (`gzip, gzip` is legal but a classic bomb amplifier). */
const MAX_CODINGS = 2;

/**
 * The codings to undo, in the order they were applied, or null when one of them is not one
 * we decode (the body is then returned as sent, headers untouched).
 */
export function parseContentEncoding(value: string | string[] | undefined): string[] | null {
  if (value === undefined) return [];
  const text = Array.isArray(value) ? value.join(',') : value;
  const codings = text
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
  if (codings.some((c) => !KNOWN.has(c))) return null;
  if (codings.length > MAX_CODINGS) throw new EgressError('E_HTTP_LIMIT', 'response uses too many content encodings');
  return codings;
}

async function* prepend(first: Buffer, rest: AsyncIterator<Buffer>): AsyncGenerator<Buffer> {
  yield first;
  for (;;) {
    const r = await rest.next();
    if (r.done) return;
    yield r.value;
  }
}

const ZLIB_OPTIONS = {
  // Tolerate a truncated stream end the way browsers do.
  finishFlush: zlib.constants.Z_SYNC_FLUSH,
};

function decoderFor(
  coding: string,
  firstByte: number,
): zlib.Gunzip | zlib.Inflate | zlib.InflateRaw | zlib.BrotliDecompress {
  switch (coding) {
    case 'gzip':
    case 'x-gzip':
      return zlib.createGunzip(ZLIB_OPTIONS);
    case 'deflate':
      // "deflate" should be zlib-wrapped (RFC 9110); some servers send raw deflate.
      return (firstByte & 0x0f) === 0x08 ? zlib.createInflate(ZLIB_OPTIONS) : zlib.createInflateRaw(ZLIB_OPTIONS);
    case 'br':
      return zlib.createBrotliDecompress({ finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH });
    default:
      throw new EgressError('E_HTTP_FAILED', 'unsupported content encoding');
  }
}

/**
 * Errors of the source (undici: timeouts, aborts, resets) pass through unchanged for the guard
 * to map; errors of the decoder itself (corrupt data) become E_HTTP_FAILED.
 */
function fromDecoder(e: unknown): unknown {
  if (e instanceof EgressError) return e;
  const code = (e as { code?: unknown } | null)?.code;
  const name = (e as { name?: unknown } | null)?.name;
  if ((typeof code === 'string' && code.startsWith('UND_ERR')) || name === 'AbortError') return e;
  return new EgressError('E_HTTP_FAILED', 'response body could not be decoded');
}

/** One decoding stage over an async byte source. */
function decodeStage(source: AsyncIterable<Buffer>, coding: string): AsyncIterable<Buffer> {
  return (async function* () {
    const it = source[Symbol.asyncIterator]();
    let first = await it.next();
    while (!first.done && first.value.length === 0) first = await it.next();
    if (first.done) return;
    const input = Readable.from(prepend(first.value, it), { objectMode: false });
    const decoder = decoderFor(coding, first.value[0]!);
    pipeline(input, decoder, () => {
      /* errors surface through the iteration below */
    });
    try {
      for await (const chunk of decoder) yield chunk as Buffer;
    } catch (e) {
      throw fromDecoder(e);
    } finally {
      input.destroy();
      decoder.destroy();
    }
  })();
}

/**
 * Reads a body into one buffer of at most `cap` bytes after decoding `codings` (in the order
 * they were applied). Throws E_HTTP_LIMIT past the cap; the source is left to the caller to
 * destroy (the guard always does on error).
 */
export async function readBody(
  body: AsyncIterable<Buffer | Uint8Array>,
  codings: readonly string[],
  cap: number,
): Promise<Buffer> {
  let source: AsyncIterable<Buffer> = (async function* () {
    for await (const c of body) yield Buffer.isBuffer(c) ? c : Buffer.from(c.buffer, c.byteOffset, c.byteLength);
  })();
  for (let i = codings.length - 1; i >= 0; i--) source = decodeStage(source, codings[i]!);
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of source) {
    total += chunk.length;
    if (total > cap) throw new EgressError('E_HTTP_LIMIT', `response body exceeds ${cap} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, total);
}
