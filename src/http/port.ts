import type { Server } from 'node:net';

/** The port a listening server is bound to (asked after `listen` called back: an address is there). */
export function boundPort(server: Server): number {
  const a = server.address();
  if (a === null || typeof a === 'string') throw new Error('the server is not listening on a TCP port');
  return a.port;
}
