/**
 * A request's body, read with a limit: past `max` bytes the read stops and throws BodyTooLarge,
 * before the rest arrives, so an oversized body is never held whole.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** A body this large is refused unless the route names its own limit. */
const MAX_BODY = 2 * 1024 * 1024;

export class BodyTooLarge extends Error {
  constructor(readonly max: number) {
    super(`the body is larger than ${max} bytes`);
  }
}

/**
 * True when the request's framing says it has no body: neither Content-Length nor
 * Transfer-Encoding (RFC 9112 6.3: its body is then zero bytes long, which is how node:http's
 * parser reads it), or a Content-Length of 0. Most API requests are such GETs; reading their
 * empty stream still took an async iterator and a turn of the event loop per request.
 */
function bodiless(req: IncomingMessage): boolean {
  const h = req.headers;
  return h['transfer-encoding'] === undefined && (h['content-length'] === undefined || h['content-length'] === '0');
}

const EMPTY = Buffer.alloc(0);

/** The request's body, at most `max` bytes (BodyTooLarge past it, before the rest is read). */
async function readBytes(req: IncomingMessage, max = MAX_BODY): Promise<Buffer> {
  // node:http dumps the (empty) stream once the answer ends, so the connection is reused as before.
  if (bodiless(req)) return EMPTY;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    // Buffers, unless someone called req.setEncoding: then strings, taken back as UTF-8.
    const chunk = Buffer.isBuffer(c) ? c : Buffer.from(String(c), 'utf8');
    size += chunk.length;
    if (size > max) throw new BodyTooLarge(max);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

export async function readBody(req: IncomingMessage, max = MAX_BODY): Promise<string> {
  return (await readBytes(req, max)).toString('utf8');
}

/**
 * The body, or undefined once `refuse` has answered a body past `max` (with 413). The response
 * closes the connection: the rest of the body is never read, so the socket cannot serve another
 * request.
 */
export async function readBytesOrRefuse(
  req: IncomingMessage,
  res: ServerResponse,
  max: number,
  refuse: () => void,
): Promise<Buffer | undefined> {
  try {
    return await readBytes(req, max);
  } catch (e) {
    if (!(e instanceof BodyTooLarge)) throw e;
    res.setHeader('connection', 'close');
    refuse();
    return undefined;
  }
}
