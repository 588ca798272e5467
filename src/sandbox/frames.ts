/**
 * Length-prefixed frames between the embedding process and a sandbox worker, over a socket pair
 * (the worker's fd 3) instead of Node's IPC channel.
 *
 * A frame: the head's length and the body's length (u32 little-endian each), the head as V8's
 * serialization (structured clone: what the IPC channel's `advanced` mode sent), then the body,
 * a string as UTF-8 (or UTF-16 when it holds a lone surrogate, which UTF-8 cannot carry): the
 * vars' JSON text on the way in, the output on the way out. Node's channel serialized each
 * message into a new buffer and parsed it whole into the heap on the other side; here each large
 * string is written once into a buffer that is used again for the next frame, and read once out
 * of the received bytes (docs/decisions.md D116). A new 45 KB buffer per render cost ~60 µs in
 * this process alone (its allocation, page faults included), more than writing the text into it.
 */
import type { Socket } from 'node:net';
import { serialize, deserialize } from 'node:v8';

const PREFIX = 8;
/** Frames larger than this get a buffer of their own, not kept afterwards (a worker's first render of a big template). */
const KEEP_BYTES = 1024 * 1024;

export type TextEncoding = 'utf8' | 'utf16le';

/** A frame or message from a worker that is not one (src/sandbox/worker-protocol.ts): the pool stops that worker. */
export class WireError extends Error {
  readonly code = 'E_SANDBOX_WIRE';
}

/** How a string crosses: UTF-8 when it is well-formed, else UTF-16, which keeps lone surrogates. */
export function textEncoding(s: string): TextEncoding {
  return s.isWellFormed() ? 'utf8' : 'utf16le';
}

/**
 * Writes frames to one socket, through one buffer used again while the socket takes each write
 * whole. The frames written in one turn of the event loop (its callback, its promise jobs) go in
 * one write, sent when the turn's promise jobs have run: a worker that rendered the several
 * requests of one read answers them in one write, and the embedding process sends the renders its
 * answers started likewise, so a burst wakes the other side once per batch, not per frame (D297).
 */
export class FrameWriter {
  private buf = Buffer.allocUnsafe(64 * 1024);
  /** Bytes of `buf` gathered for the next write. */
  private used = 0;
  private flushing = false;

  constructor(private readonly socket: Socket) {}

  /** `enc` must be `textEncoding(body)` when the body may hold a lone surrogate. */
  write(head: unknown, body?: string, enc: TextEncoding = 'utf8'): void {
    const h = serialize(head);
    // At most 3 bytes of UTF-8 per UTF-16 unit, 2 of UTF-16: no pass over the text to size it.
    const most = PREFIX + h.length + (body === undefined ? 0 : body.length * (enc === 'utf8' ? 3 : 2));
    if (this.used + most > this.buf.length) {
      this.flush();
      if (most > this.buf.length) {
        const big = Buffer.allocUnsafe(most);
        if (most > KEEP_BYTES) {
          // Sent alone, and not kept.
          this.socket.write(big.subarray(0, frame(big, 0, h, body, enc)));
          return;
        }
        this.buf = big;
      }
    }
    this.used += frame(this.buf, this.used, h, body, enc);
    if (!this.flushing) {
      this.flushing = true;
      // After the promise jobs of this turn (a tick queued from one runs once they are done).
      process.nextTick(() => this.flush());
    }
  }

  /** Sends what was gathered now (before the socket is ended, say). */
  flush(): void {
    this.flushing = false;
    if (this.used === 0) return;
    this.socket.write(this.buf.subarray(0, this.used));
    this.used = 0;
    // Taken whole by the kernel, the bytes are copied; otherwise the stream still holds this
    // buffer, and the next frames need another.
    if (this.socket.writableLength > 0) this.buf = Buffer.allocUnsafe(this.buf.length);
  }
}

/** Writes one frame into `out` at `at` (room for the most it can take is there): its length in bytes. */
function frame(out: Buffer, at: number, h: Buffer, body: string | undefined, enc: TextEncoding): number {
  const bodyBytes = body === undefined ? 0 : out.write(body, at + PREFIX + h.length, enc);
  out.writeUInt32LE(h.length, at);
  out.writeUInt32LE(bodyBytes, at + 4);
  h.copy(out, at + PREFIX);
  return PREFIX + h.length + bodyBytes;
}

/**
 * Reassembles frames from a stream's chunks. A chunk may be a view of a buffer the stream reuses,
 * so what is left of it past the last whole frame is copied; the body handed on is valid only
 * during the call (it is read into a string there).
 */
export class FrameReader {
  private pending = Buffer.allocUnsafe(0);
  private pendingBytes = 0;

  /**
   * `maxBytes`: the largest frame accepted, read when a frame's lengths arrive; a frame that
   * declares more is refused with a WireError before its bytes are gathered (a worker cannot make
   * this process buffer without bound). A head that does not deserialize is refused the same way.
   */
  constructor(
    private readonly onFrame: (head: unknown, body: Buffer) => void,
    private readonly maxBytes: () => number = () => Infinity,
  ) {}

  push(chunk: Buffer): void {
    let data = chunk;
    if (this.pendingBytes > 0) {
      this.keep(chunk);
      data = this.pending.subarray(0, this.pendingBytes);
    }
    let at = 0;
    while (data.length - at >= PREFIX) {
      const headLength = data.readUInt32LE(at);
      const frameBytes = PREFIX + headLength + data.readUInt32LE(at + 4);
      if (frameBytes > this.maxBytes()) throw new WireError(`a frame of ${frameBytes} bytes`);
      const end = at + frameBytes;
      if (end > data.length) break;
      let head: unknown;
      try {
        head = deserialize(data.subarray(at + PREFIX, at + PREFIX + headLength));
      } catch {
        throw new WireError('a frame head that does not deserialize');
      }
      this.onFrame(head, data.subarray(at + PREFIX + headLength, end));
      at = end;
    }
    if (data === chunk) {
      this.pendingBytes = 0;
      if (at < chunk.length) this.keep(chunk.subarray(at));
    } else {
      // Left-over bytes of a frame still arriving move to the front.
      this.pending.copy(this.pending, 0, at, this.pendingBytes);
      this.pendingBytes -= at;
    }
    // A big frame's buffer is not kept once it has been read.
    if (this.pendingBytes === 0 && this.pending.length > KEEP_BYTES) this.pending = Buffer.allocUnsafe(0);
  }

  private keep(bytes: Buffer): void {
    const need = this.pendingBytes + bytes.length;
    if (need > this.pending.length) {
      const bigger = Buffer.allocUnsafe(Math.max(need, this.pending.length * 2, 64 * 1024));
      this.pending.copy(bigger, 0, 0, this.pendingBytes);
      this.pending = bigger;
    }
    bytes.copy(this.pending, this.pendingBytes);
    this.pendingBytes = need;
  }
}
