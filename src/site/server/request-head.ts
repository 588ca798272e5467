/**
 * The first request head of a connection, as the primary of `serve --sites --processes N` reads
 * it to choose the child that serves the connection (affinity.ts): read with a bound on bytes and
 * time, and only as far as the site it names. Everything else about the request is the child's
 * HTTP server's to parse and to refuse.
 */
import type { Socket } from 'node:net';

/** Node's own bound on a request head (`--max-http-header-size`, 16 KiB): past it the child answers 431. */
export const MAX_HEAD_BYTES = 16 * 1024;
/** A head not complete this long after the connection opened is answered 408 by the primary. */
export const HEAD_TIMEOUT_MS = 10_000;

/**
 * How reading a head ended. `bytes` is everything read from the socket, for the child: the head,
 * and whatever followed it in the same reads (a body, a pipelined request).
 * - `head`: a blank line ended it;
 * - `oversized`: MAX_HEAD_BYTES and no end (the child's parser refuses it, as it would any);
 * - `slow`: HEAD_TIMEOUT_MS and no end;
 * - `closed`: the client went (or the socket failed) first.
 */
export type HeadRead = { kind: 'head' | 'oversized' | 'slow'; bytes: Buffer } | { kind: 'closed' };

/** The internal stream handle of a net.Socket, as far as this file needs it. */
interface ReadableHandle {
  reading?: boolean;
  readStart?(): number;
  readStop?(): number;
}

const handleOf = (socket: Socket) => (socket as unknown as { _handle?: ReadableHandle | null })._handle;
const stopped = new WeakSet<Socket>();

/**
 * Stops the handle reading, and keeps it stopped: node:net restarts a handle whose `reading`
 * flag is off whenever the stream wants more (the read-ahead after each chunk does), so the flag
 * stays on until startReading.
 */
function stopReading(socket: Socket): void {
  const handle = handleOf(socket);
  if (!handle?.reading || !handle.readStop) return;
  handle.readStop();
  stopped.add(socket);
}

/**
 * A socket readHead stopped, reading again in this process (one sent to another process arrives
 * there reading as any new socket does): for a server that takes connections (listen.ts).
 */
export function startReading(socket: Socket): void {
  const handle = handleOf(socket);
  if (!stopped.delete(socket) || !handle?.readStart) return;
  // The stream asked for data while the handle was stopped and still waits for it.
  handle.readStart();
  socket.resume();
}

/**
 * Reads `socket` (accepted with `pauseOnConnect`) until its first head is complete, then stops
 * reading it: what arrives later stays in the kernel for the process the socket is handed to.
 * `pause()` alone is not enough: a paused net.Socket keeps reading into its buffer up to the
 * high-water mark, and a handle being sent to another process drops what it reads (child_process
 * sets its `onread` to a no-op until the child acknowledges it). Measured: 36 of 300 POSTs whose
 * body came a moment after the head lost it without the readStop, none with it.
 */
export function readHead(
  socket: Socket,
  limits = { maxBytes: MAX_HEAD_BYTES, timeoutMs: HEAD_TIMEOUT_MS },
): Promise<HeadRead> {
  return new Promise((done) => {
    const chunks: Buffer[] = [];
    let length = 0;
    const finish = (r: HeadRead) => {
      clearTimeout(timer);
      socket.off('data', onData);
      socket.off('close', onClose);
      socket.off('error', onClose);
      socket.pause();
      stopReading(socket);
      done(r);
    };
    const onData = (chunk: Buffer) => {
      // Where the blank line may start: three bytes of it may be in the chunks before.
      const from = Math.max(0, length - 3);
      chunks.push(chunk);
      length += chunk.length;
      const bytes = chunks.length === 1 ? chunk : Buffer.concat(chunks, length);
      if (chunks.length > 1) chunks.splice(0, chunks.length, bytes);
      if (bytes.indexOf('\r\n\r\n', from, 'latin1') >= 0) finish({ kind: 'head', bytes });
      else if (length >= limits.maxBytes) finish({ kind: 'oversized', bytes });
    };
    const onClose = () => {
      finish({ kind: 'closed' });
      socket.destroy();
    };
    const timer = setTimeout(() => finish({ kind: 'slow', bytes: Buffer.concat(chunks, length) }), limits.timeoutMs);
    socket.on('data', onData);
    socket.once('close', onClose);
    socket.once('error', onClose);
    socket.resume();
  });
}

/** `KEY.localhost[:port]`, as the app of --sites reads the Host header (src/site/app/app.ts). */
const SITE_HOST = /^([a-z0-9][a-z0-9_-]{0,62})\.localhost(?::\d+)?$/;
/** `/sites/KEY/...`, the other way the app addresses a site. */
const SITE_PATH = /^\/sites\/([^/?#]+)/;

/**
 * The site a request head names as the app of `serve --sites` would find it: the Host
 * `KEY.localhost`, else the path `/sites/KEY/`; undefined for anything else (`/healthz`,
 * `/metrics`, the sites' index, a head that is not HTTP). Only a choice of process depends on
 * it: a key read differently here than in the app sends the site to another child, which serves
 * it as well.
 */
export function siteOfHead(bytes: Buffer): string | undefined {
  const end = bytes.indexOf('\r\n\r\n', 0, 'latin1');
  const head = bytes.toString('latin1', 0, end < 0 ? Math.min(bytes.length, MAX_HEAD_BYTES) : end);
  const lines = head.split('\r\n');
  let host: string | undefined;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.length < 5 || line.charCodeAt(4) !== 58 /* : */ || line.slice(0, 4).toLowerCase() !== 'host') continue;
    host = line.slice(5);
    break;
  }
  return siteOf(host, lines[0]!.split(' ')[1]);
}

/** The site a request names by its Host header and its target, as siteOfHead reads them. */
export function siteOf(host: string | undefined, target: string | undefined): string | undefined {
  const m = host === undefined ? null : SITE_HOST.exec(host.trim().toLowerCase());
  if (m) return m[1];
  return target === undefined ? undefined : SITE_PATH.exec(target)?.[1];
}
