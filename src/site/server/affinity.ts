/**
 * Site affinity for `serve --sites --processes N` (docs/decisions.md D226): the primary accepts
 * each connection itself, reads its first request head (request-head.ts), and hands the socket,
 * with the bytes it read, to the child that owns the site the head names. A site is owned by one
 * child at a time, so only that child warms its isolate and opens its database: with round-robin
 * every child warmed every hot site.
 *
 * - The owner is a rendezvous hash of the site's route key over the slots whose child is up: when a
 *   child dies its sites spread over the others and no other site moves; when its slot's next
 *   child is up they come back. The route key is the site key, or its isolate group's when its
 *   sites share isolates (`RouteKey`, D343).
 * - A head that names no site (`/healthz`, `/metrics`, the index) or is too large goes to the next
 *   child in turn; the child's HTTP server answers it as it would any (431 for a head too large).
 * - A head not complete within HEAD_TIMEOUT_MS is answered 408 here; with no child up, 503.
 * - The primary routes by a connection's first request only: the later requests of a keep-alive
 *   connection go to the same child whatever site they name. That child passes a request for a
 *   site it does not own to the owner (reroute.ts, D238), or serves it when it cannot (every child
 *   can serve every site).
 */
import { createServer, type Server, type Socket } from 'node:net';
import { boundPort } from '../../http/port.js';
import { fnv1a, mix32 } from '../../text/string-hash.js';
import { HEAD_TIMEOUT_MS, MAX_HEAD_BYTES, readHead, siteOfHead } from './request-head.js';

/** A child that is up, as the front sees it: its slot (stable across restarts) and how to give it a connection. */
export interface LiveChild {
  readonly slot: number;
  hand(socket: Socket, bytes: Buffer): void;
}

/**
 * What a site is routed by. A site key, or for a site whose isolate group shares isolates, the
 * group's key (IsolateGroups.routeKey): a group's sites then go to one child, whose isolates they
 * share, instead of a few isolates of the group in every child (docs/decisions.md D343).
 */
export type RouteKey = (site: string) => string;

/** Each site by its own key. */
export const bySite: RouteKey = (site) => site;

/** The index in `slots` of the slot that owns `key` (a RouteKey's): the highest score of the key with each slot. */
export function ownerOf(key: string, slots: readonly number[]): number {
  const h = fnv1a(key);
  let best = 0;
  let bestScore = -1;
  for (let i = 0; i < slots.length; i++) {
    const score = mix32(h ^ Math.imul(slots[i]! + 1, 0x9e3779b9));
    if (score > bestScore) {
      best = i;
      bestScore = score;
    }
  }
  return best;
}

export interface Front {
  readonly server: Server;
  readonly port: number;
  /** Stops accepting; connections whose first head has not come yet are closed (none of their requests was received). */
  close(): void;
}

/** A short answer from the primary itself, then the connection closed. */
function answer(socket: Socket, status: string, headers = ''): void {
  // A client that went meanwhile is no error of the server's.
  socket.on('error', () => socket.destroy());
  socket.end(`HTTP/1.1 ${status}\r\nconnection: close\r\ncontent-length: 0\r\n${headers}\r\n`, () => socket.destroy());
}

/** Listens on host:port and hands each connection to one of `live()` (see above); `limits` of the first head: tests. */
export async function listenFront(
  host: string,
  port: number,
  live: () => readonly LiveChild[],
  routeKey: RouteKey,
  log: (line: string) => void,
  limits = { maxBytes: MAX_HEAD_BYTES, timeoutMs: HEAD_TIMEOUT_MS },
): Promise<Front> {
  const reading = new Set<Socket>();
  let turn = 0;
  const server = createServer({ pauseOnConnect: true }, (socket) => {
    reading.add(socket);
    void readHead(socket, limits).then((r) => {
      reading.delete(socket);
      if (r.kind === 'closed') return;
      if (r.kind === 'slow') return answer(socket, '408 Request Timeout');
      const children = live();
      if (children.length === 0) return answer(socket, '503 Service Unavailable', 'retry-after: 1\r\n');
      const site = r.kind === 'head' ? siteOfHead(r.bytes) : undefined;
      const i =
        site === undefined
          ? turn++ % children.length
          : ownerOf(
              routeKey(site),
              children.map((c) => c.slot),
            );
      children[i]!.hand(socket, r.bytes);
    });
  });
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(port, host, () => {
      server.off('error', fail);
      ok();
    });
  });
  // An accept that fails (EMFILE) loses that connection, not the server and every child with it.
  let lastError = '';
  server.on('error', (e: NodeJS.ErrnoException) => {
    const line = `accepting a connection failed (${e.code ?? e.message})`;
    if (line !== lastError) log(line);
    lastError = line;
  });
  return {
    server,
    port: boundPort(server),
    close: () => {
      server.close();
      for (const s of reading) s.destroy();
      reading.clear();
    },
  };
}
