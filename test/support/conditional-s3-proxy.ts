/**
 * A stand-in for an S3 server that honours conditional writes, for the tests of the path that
 * relies on them: an HTTP hop in front of s3rver (which ignores If-Match and If-None-Match) that
 * answers 412 PreconditionFailed itself. It serializes the requests of each key (s3rver rewrites
 * an object in place, so a GET beside a PUT of the same key can hang; S3 replaces objects
 * atomically), and remembers the ETag of each
 * key it saw written (and forgets keys it saw deleted one at a time), so it only knows keys
 * written through it: enough for tests that write through it alone.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ConditionalProxy {
  endpoint: string;
  /** PUTs refused with 412 so far. */
  refused(): number;
  close(): Promise<void>;
}

const PRECONDITION_FAILED =
  '<?xml version="1.0" encoding="UTF-8"?><Error><Code>PreconditionFailed</Code><Message>At least one of the pre-conditions you specified did not hold</Message></Error>';

export async function startConditionalProxy(upstream: string): Promise<ConditionalProxy> {
  const target = new URL(upstream);
  const etags = new Map<string, string>();
  const queues = new Map<string, Promise<void>>();
  let refused = 0;

  const forward = (req: http.IncomingMessage, res: http.ServerResponse, body: Buffer): Promise<number> =>
    new Promise((resolve, reject) => {
      const fwd = http.request(
        { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
        (r) => {
          const key = keyOf(req);
          if (req.method === 'PUT' && r.statusCode === 200 && typeof r.headers.etag === 'string')
            etags.set(key, r.headers.etag);
          if (req.method === 'DELETE' && (r.statusCode ?? 500) < 300) etags.delete(key);
          res.writeHead(r.statusCode ?? 502, r.headers);
          r.pipe(res);
          r.on('end', () => resolve(r.statusCode ?? 502));
        },
      );
      fwd.on('error', reject);
      fwd.end(body);
    });

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const key = keyOf(req);
      const prev = queues.get(key) ?? Promise.resolve();
      const mine = prev.then(async () => {
        if (req.method !== 'PUT')
          return forward(req, res, body).then(
            () => undefined,
            () => void res.destroy(),
          );
        const ifMatch = req.headers['if-match'];
        const ifNoneMatch = req.headers['if-none-match'];
        const now = etags.get(key);
        if ((ifMatch !== undefined && ifMatch !== now) || (ifNoneMatch === '*' && now !== undefined)) {
          refused++;
          res.writeHead(412, { 'content-type': 'application/xml' });
          res.end(PRECONDITION_FAILED);
          return;
        }
        await forward(req, res, body).catch(() => res.destroy());
      });
      queues.set(key, mine);
      void mine.finally(() => {
        if (queues.get(key) === mine) queues.delete(key);
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    refused: () => refused,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

function keyOf(req: http.IncomingMessage): string {
  return decodeURIComponent((req.url ?? '').split('?')[0]);
}
