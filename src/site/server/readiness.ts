/**
 * `/readyz`: can this process serve its open sites now? Each backend a site's site.json
 * configures is asked one cheap question: PostgreSQL `SELECT 1` (through the site's own pool),
 * the Redis batch queue PING, the S3 bucket HeadBucket, the SMTP relay a TCP connect and its 220
 * greeting (or the TLS port's connect). SQLite and the local files folder are this process's own
 * files, not backends that can be down.
 *
 * - A backend shared by many sites (one database URL, one relay) is checked once per probe.
 * - All checks run in parallel against one deadline (DEFAULT_DEADLINE_MS); a check past it counts
 *   as down (`timeout`).
 * - At most one check per backend is in flight: a probe that comes while the last one still
 *   waits (a database that hangs rather than refuses) joins it instead of piling up connections.
 * - The answer names a backend by its kind and a short hash of its address, never the address,
 *   a site key or a credential: the endpoint is public to whoever reaches the port. The reason
 *   is an error code (`ECONNREFUSED`, `timeout`, an S3 error name), not a message that could
 *   quote a user name.
 */
import { createHash } from 'node:crypto';
import { connect as tcpConnect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import type { SiteContext } from '../site-context.js';
import { readSecrets } from '../adapters/secrets.js';
import { batchQueueUrl } from '../batches/queue-url.js';

const DEFAULT_DEADLINE_MS = 2000;

type BackendKind = 'database' | 'batch_queue' | 'storage' | 'smtp';

interface DownBackend {
  backend: BackendKind;
  /** The first 8 hex digits of sha256 of its address: tells two apart, reveals neither. */
  id: string;
  reason: string;
}

export type ReadyReport = { ready: true } | { ready: false; draining: true } | { ready: false; down: DownBackend[] };

interface Backend {
  kind: BackendKind;
  key: string;
  check(): Promise<void>;
}

/** A failure's code, never its message. */
const reasonOf = (e: unknown): string => {
  const o = (typeof e === 'object' && e !== null ? e : {}) as { code?: unknown; name?: unknown };
  const code =
    typeof o.code === 'string' ? o.code : typeof o.name === 'string' && o.name !== 'Error' ? o.name : 'error';
  return code.replace(/[^A-Za-z0-9_]/g, '').slice(0, 40) || 'error';
};

class CheckFailed extends Error {
  constructor(readonly code: string) {
    super(code);
  }
}

/** Reads from a socket until `done(text)` says the answer is complete (true) or wrong (a code). */
function converse(socket: Socket, send: string | null, done: (text: string) => true | string | null): Promise<void> {
  return new Promise((ok, fail) => {
    let text = '';
    const end = (e?: Error) => {
      socket.destroy();
      if (e) fail(e);
      else ok();
    };
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => {
      text += d;
      const r = done(text);
      if (r === true) end();
      else if (typeof r === 'string') end(new CheckFailed(r));
    });
    socket.on('error', (e) => end(e));
    socket.on('close', () => end(new CheckFailed('closed')));
    if (send !== null) socket.write(send);
  });
}

const resp = (...args: string[]) =>
  `*${args.length}\r\n${args.map((a) => `$${Buffer.byteLength(a)}\r\n${a}\r\n`).join('')}`;

/** PING over RESP, after AUTH when the URL carries a password. */
function redisPing(url: string): Promise<void> {
  const u = new URL(url);
  const auth = u.password
    ? resp('AUTH', ...(u.username ? [decodeURIComponent(u.username)] : []), decodeURIComponent(u.password))
    : '';
  const socket = tcpConnect({ host: u.hostname || '127.0.0.1', port: Number(u.port || 6379) });
  const replies = auth ? 2 : 1;
  return converse(socket, auth + resp('PING'), (text) => {
    const lines = text.split('\r\n');
    if (lines.length <= replies) return null;
    if (lines.slice(0, replies).some((l) => l.startsWith('-'))) return 'refused';
    return lines[replies - 1] === '+PONG' ? true : 'unexpected';
  });
}

/** A TCP connect and the 220 greeting (implicit TLS: the handshake). */
function smtpGreeting(host: string, port: number, secure: boolean): Promise<void> {
  if (secure) {
    return new Promise((ok, fail) => {
      // Reachability only: the certificate is the sender's to check when it sends.
      const s = tlsConnect({ host, port, servername: host, rejectUnauthorized: false }, () => {
        s.destroy();
        ok();
      });
      s.on('error', fail);
    });
  }
  const socket = tcpConnect({ host, port });
  return converse(socket, null, (text) => {
    if (!text.includes('\n')) return null;
    if (!text.startsWith('220')) return `smtp_${text.slice(0, 3)}`;
    socket.write('QUIT\r\n');
    return true;
  });
}

async function headBucket(site: SiteContext): Promise<void> {
  const cfg = site.config.storage;
  if (cfg.type !== 's3') return;
  const secrets = readSecrets(site.dir, site.config.secrets);
  const accessKeyId = secrets[cfg.access_key_secret]?.value;
  const secretAccessKey = secrets[cfg.secret_key_secret]?.value;
  if (typeof accessKeyId !== 'string' || typeof secretAccessKey !== 'string') throw new CheckFailed('missing_secret');
  const sdk = await import('@aws-sdk/client-s3');
  const client = new sdk.S3Client({
    region: cfg.region,
    endpoint: cfg.endpoint,
    forcePathStyle: cfg.force_path_style ?? false,
    credentials: { accessKeyId, secretAccessKey },
    maxAttempts: 1,
    requestHandler: { requestTimeout: DEFAULT_DEADLINE_MS, connectionTimeout: DEFAULT_DEADLINE_MS },
  });
  try {
    await client.send(new sdk.HeadBucketCommand({ Bucket: cfg.bucket }));
  } finally {
    client.destroy();
  }
}

/** The backends a site's site.json configures (none for a site on SQLite, local files, no queue, no relay). */
function backendsOf(site: SiteContext): Backend[] {
  const out: Backend[] = [];
  const c = site.config;
  if (c.database)
    out.push({
      kind: 'database',
      key: `database ${c.database}`,
      check: async () => void (await site.db.get('SELECT 1')),
    });
  if (c.batch_queue) {
    // The key is the URL without the password: the same Redis is one backend whatever its secret.
    out.push({
      kind: 'batch_queue',
      key: `redis ${c.batch_queue}`,
      check: async () => {
        let url: string | null;
        try {
          url = batchQueueUrl(site.dir, c);
        } catch {
          throw new CheckFailed('missing_secret');
        }
        if (url) await redisPing(url);
      },
    });
  }
  if (c.storage.type === 's3')
    out.push({
      kind: 'storage',
      key: `s3 ${c.storage.endpoint ?? c.storage.region} ${c.storage.bucket}`,
      check: () => headBucket(site),
    });
  const smtp = c.mail.smtp;
  if (smtp)
    out.push({
      kind: 'smtp',
      key: `smtp ${smtp.host}:${smtp.port}`,
      check: () => smtpGreeting(smtp.host, smtp.port, smtp.secure),
    });
  return out;
}

export class Readiness {
  /** Set when a stop begins: from then on not ready, whatever the backends say. */
  draining = false;
  private readonly inFlight = new Map<string, Promise<string | null>>();

  constructor(
    /** The sites open now (a site not open yet has no handles to check). */
    private readonly openSites: () => Iterable<SiteContext>,
    private readonly deadlineMs = DEFAULT_DEADLINE_MS,
  ) {}

  async probe(): Promise<ReadyReport> {
    if (this.draining) return { ready: false, draining: true };
    const backends = new Map<string, Backend>();
    for (const site of this.openSites())
      for (const b of backendsOf(site)) if (!backends.has(b.key)) backends.set(b.key, b);
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<'timeout'>((r) => (timer = setTimeout(() => r('timeout'), this.deadlineMs)));
    try {
      const results = await Promise.all(
        [...backends.values()].map(async (b) => ({ b, reason: await Promise.race([this.check(b), deadline]) })),
      );
      const down = results
        .filter((r) => r.reason !== null)
        .map(({ b, reason }) => ({ backend: b.kind, id: idOf(b.key), reason: reason! }));
      if (this.draining) return { ready: false, draining: true };
      return down.length === 0 ? { ready: true } : { ready: false, down };
    } finally {
      clearTimeout(timer);
    }
  }

  /** null: up; else why not. One check per backend in flight. */
  private check(b: Backend): Promise<string | null> {
    let p = this.inFlight.get(b.key);
    if (!p) {
      p = b.check().then(
        () => null,
        (e: unknown) => (e instanceof CheckFailed ? e.code : reasonOf(e)),
      );
      this.inFlight.set(b.key, p);
      void p.finally(() => this.inFlight.delete(b.key));
    }
    return p;
  }
}

const idOf = (key: string): string => createHash('sha256').update(key).digest('hex').slice(0, 8);
