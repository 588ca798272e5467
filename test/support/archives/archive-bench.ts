/**
 * What the archive plugin tests share: a sample site on one backend (siteBench) whose host also
 * has the real EgressGuard, allowed to reach one HTTPS file server on 127.0.0.2 as
 * `public.test` (test policy only), and a BatchesAdapter that records what it is asked to queue;
 * helpers to put bytes in the site's store and read them back.
 */
import https from 'node:https';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';
import { EgressGuard } from '../../../src/host-adapters/egress/index.js';
import type { BatchStart, BatchesAdapter } from '../../../src/host-api/adapters/batches.js';
import { parseVirtualPath } from '../../../src/host-adapters/files/virtual-path.js';
import type { HostAdapters } from '../../../src/index.js';
import type { Backend } from '../../site/support/backends.js';
import { siteBench, type SiteBench } from '../../site/support/site-bench.js';
import { CERT, PUBLIC_IP, mapResolver } from '../egress-servers.js';

const KEY = readFileSync(new URL('../../fixtures/tls/test-key.pem', import.meta.url));

interface Queued extends BatchStart {
  tenant: string;
  /** Whether the file the plugin reported was in the store when the run was queued. */
  written: boolean | null;
}

export interface ArchiveBench extends SiteBench {
  /** https://public.test:<port><path> */
  url(path: string): string;
  /** What the file server answers at a path. */
  serve: Map<string, Buffer>;
  queued: Queued[];
  /** Batch slugs the recorder knows (others: null, no such batch). */
  batches: Set<string>;
  /** The file to look for when a run is queued. */
  expectWritten: { path: string | null };
  put(path: string, data: Uint8Array | string): Promise<void>;
  get(path: string): Promise<Buffer>;
  exists(path: string): Promise<boolean>;
}

/** `host`: how the test's host differs (default: the site's adapters plus http and batches). */
export function archiveBench(backend: Backend, opts: { host?: (h: HostAdapters) => HostAdapters } = {}): ArchiveBench {
  const serve = new Map<string, Buffer>();
  const queued: Queued[] = [];
  const batches = new Set(['after_archive']);
  const expectWritten = { path: null as string | null };
  let server: https.Server | undefined;
  let guard: EgressGuard | undefined;
  let port = 0;
  beforeAll(async () => {
    server = https.createServer({ key: KEY, cert: CERT }, (req, res) => {
      const body = serve.get(new URL(req.url ?? '/', 'https://x').pathname);
      res.statusCode = body ? 200 : 404;
      res.end(body ?? 'no such file');
    });
    await new Promise<void>((resolve) => server!.listen(0, PUBLIC_IP, resolve));
    port = (server.address() as AddressInfo).port;
    guard = new EgressGuard(
      { allowedPorts: [port], treatAsPublic: [PUBLIC_IP], maxResponseBytes: 128 * 1024 * 1024, timeoutMs: 20_000 },
      mapResolver({ 'public.test': [PUBLIC_IP] }),
      { ca: CERT },
    );
  });
  afterAll(async () => {
    await guard?.close();
    server?.closeAllConnections();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  });

  const recorder: BatchesAdapter = {
    async enqueue(start) {
      const written = expectWritten.path === null ? null : await exists(expectWritten.path);
      queued.push({ tenant: bench.site.tenant, written, ...start });
      return 'slug' in start.batch && batches.has(start.batch.slug) ? queued.length : null;
    },
  };
  const withNet = (h: HostAdapters): HostAdapters => ({
    ...h,
    http: { fetch: (r) => guard!.fetch(r) },
    batches: recorder,
  });
  const bench = siteBench(backend, { host: opts.host ?? withNet });
  const files = () => bench.site.host.files!;
  const exists = async (path: string): Promise<boolean> =>
    files()
      .stat(parseVirtualPath(path))
      .then(
        () => true,
        () => false,
      );
  return {
    get site() {
      return bench.site;
    },
    clock: bench.clock,
    render: bench.render,
    result: bench.result,
    error: bench.error,
    sql: bench.sql,
    url: (path: string) => `https://public.test:${port}${path}`,
    serve,
    queued,
    batches,
    expectWritten,
    put: (path: string, data: Uint8Array | string) =>
      files().writeAtomic(parseVirtualPath(path), typeof data === 'string' ? Buffer.from(data) : data),
    get: async (path: string) => Buffer.from(await files().read(parseVirtualPath(path))),
    exists,
  };
}
