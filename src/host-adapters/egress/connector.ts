/**
 * The undici connector of the guard: the only place a socket is opened.
 *
 * For every new connection it resolves the name once with the injected resolver, refuses the
 * name if ANY answer is not public (so a name with one public and one private record is
 * denied outright, and the address list we may connect to is exactly the validated one),
 * then opens TCP to a validated IP itself: `net.connect` gets an IP literal and a `lookup`
 * that refuses, so nothing below us can resolve again. Before a single byte is written (the
 * TLS ClientHello included) the socket's `remoteAddress` is checked against the pinned
 * address and the public-address rule. TLS is layered on that checked socket by undici's
 * `buildConnector` (`httpSocket`), with SNI and certificate checks against the name.
 */
import net from 'node:net';
import { buildConnector } from 'undici';
import { EgressError, type EgressCode } from './errors.js';
import { isPublicAddress, sameAddress, unmapIPv4 } from './ip-class.js';
import type { EgressPolicy } from './policy.js';
import type { Resolver } from './resolver.js';

/**
 * An error raised below undici, carried back to the guard through undici's request error.
 * The guard re-words it with the URL of the hop; the message here names no address.
 */
export class ConnectorError extends EgressError {
  constructor(
    code: EgressCode,
    readonly reason: string,
  ) {
    super(code, reason);
    this.name = 'ConnectorError';
  }
}

interface ConnectorStats {
  connections: number;
  denied: number;
}

export type ConnectFn = (options: buildConnector.Options, callback: buildConnector.Callback) => void;

/** A `lookup` for `net.connect` that never resolves: the connector only ever passes IP literals. */
function refuseLookup(hostname: string, _options: unknown, callback: (err: Error) => void): void {
  callback(new Error(`egress connector: refusing to resolve ${hostname}`));
}

function withTimeout<T>(p: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const t = setTimeout(() => reject(onTimeout()), ms);
    p.then(
      (v) => {
        clearTimeout(t);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(t);
        reject(e);
      },
    );
  });
}

/**
 * The post-connect check: the socket's peer is the pinned address (IPv4-mapped compared as
 * IPv4) and is itself public.
 */
export function peerAllowed(
  remoteAddress: string | undefined,
  pinned: string,
  policy: Pick<EgressPolicy, 'treatAsPublic'>,
): boolean {
  return !!remoteAddress && sameAddress(remoteAddress, pinned) && isPublicAddress(unmapIPv4(remoteAddress), policy);
}

export interface GuardedConnectOptions {
  policy: EgressPolicy;
  resolver: Resolver;
  stats: ConnectorStats;
  /** Extra trusted CA certificates (PEM), replacing Node's bundle when set. Test servers and mTLS `cainfo`. */
  ca?: string | Buffer | readonly (string | Buffer)[];
  /** A client certificate and its key (PEM) presented in every TLS handshake of this connector (mTLS). */
  clientCert?: { cert: string; key: string };
}

export function createGuardedConnect({ policy, resolver, stats, ca, clientCert }: GuardedConnectOptions): ConnectFn {
  const tlsConnector = buildConnector({
    // HTTP/1.1 only: the header cap is llhttp's maxHeaderSize, which undici's HTTP/2 client does
    // not apply (undici 8 offers h2 in ALPN by default; test/host-bridge/egress/h2.test.ts).
    allowH2: false,
    timeout: policy.timeoutMs,
    lookup: refuseLookup as never,
    ...(ca !== undefined ? { ca: ca as string | Buffer | (string | Buffer)[] } : {}),
    ...(clientCert !== undefined ? { cert: clientCert.cert, key: clientCert.key } : {}),
  });

  const deny = (reason: string): ConnectorError => {
    stats.denied++;
    return new ConnectorError('E_SSRF_DENIED', reason);
  };

  /** The addresses this connection may use: all answers validated, in resolver order. */
  async function addressesFor(hostname: string): Promise<string[]> {
    if (net.isIP(hostname)) {
      if (!isPublicAddress(hostname, policy)) throw deny('address not allowed');
      return [hostname];
    }
    let answers: { address: string; family: 4 | 6 }[];
    try {
      answers = await withTimeout(
        Promise.resolve().then(() => resolver.lookup(hostname)),
        policy.timeoutMs,
        () => new ConnectorError('E_HTTP_TIMEOUT', 'host name lookup timed out'),
      );
    } catch (e) {
      if (e instanceof ConnectorError) throw e;
      throw new ConnectorError('E_HTTP_FAILED', 'could not resolve host');
    }
    if (!Array.isArray(answers) || answers.length === 0)
      throw new ConnectorError('E_HTTP_FAILED', 'could not resolve host');
    const out: string[] = [];
    for (const a of answers) {
      const address = a && typeof a.address === 'string' ? a.address : '';
      if (!net.isIP(address) || !isPublicAddress(address, policy))
        throw deny('host resolves to an address that is not allowed');
      out.push(address);
    }
    return out;
  }

  /** TCP to one validated IP; resolves once the peer is checked. */
  function tcp(ip: string, port: number, deadline: number): Promise<net.Socket> {
    return new Promise((resolve, reject) => {
      stats.connections++;
      const socket = net.connect({ host: ip, port, lookup: refuseLookup as never, noDelay: true });
      const timer = setTimeout(
        () => fail(new ConnectorError('E_HTTP_TIMEOUT', 'connect timed out')),
        Math.max(1, deadline - Date.now()),
      );
      const fail = (err: Error): void => {
        clearTimeout(timer);
        socket.destroy();
        reject(err);
      };
      socket.once('error', (err) =>
        fail(err instanceof ConnectorError ? err : new ConnectorError('E_HTTP_FAILED', 'connection failed')),
      );
      socket.once('connect', () => {
        clearTimeout(timer);
        // Defence in depth: the peer must be the address we validated, and public.
        if (!peerAllowed(socket.remoteAddress, ip, policy)) {
          socket.destroy();
          reject(deny('connected peer is not allowed'));
          return;
        }
        socket.removeAllListeners('error');
        socket.setKeepAlive(true, 60_000);
        resolve(socket);
      });
    });
  }

  function tls(options: buildConnector.Options, ip: string, socket: net.Socket): Promise<net.Socket> {
    return new Promise((resolve, reject) => {
      const servername = net.isIP(options.hostname) ? undefined : options.hostname.replace(/\.$/, '');
      tlsConnector(
        { ...options, hostname: ip, ...(servername ? { servername } : {}), httpSocket: socket },
        (err, s) => {
          if (err || !s) {
            socket.destroy();
            reject(new ConnectorError('E_HTTP_FAILED', 'TLS handshake failed'));
          } else {
            resolve(s);
          }
        },
      );
    });
  }

  return (options, callback) => {
    const deadline = Date.now() + policy.timeoutMs;
    const https = options.protocol === 'https:';
    const port = Number(options.port) || (https ? 443 : 80);
    (async () => {
      if (!policy.allowedPorts.includes(port)) throw deny('port not allowed');
      const addresses = await addressesFor(options.hostname);
      let lastError: Error = new ConnectorError('E_HTTP_FAILED', 'connection failed');
      // Only validated answers, in order; the next one only if the previous could not connect.
      for (const ip of addresses) {
        let socket: net.Socket;
        try {
          socket = await tcp(ip, port, deadline);
        } catch (e) {
          if (e instanceof ConnectorError && e.code === 'E_SSRF_DENIED') throw e;
          lastError = e as Error;
          if (Date.now() >= deadline) break;
          continue;
        }
        return https ? tls(options, ip, socket) : socket;
      }
      throw lastError;
    })().then(
      (socket) => callback(null, socket),
      (err: unknown) =>
        callback(err instanceof ConnectorError ? err : new ConnectorError('E_HTTP_FAILED', 'connection failed'), null),
    );
  };
}
