/**
 * VisionOcr against a local server of the Vision API's files:annotate shape (127.0.0.1, public
 * for this test's egress guard only), alone and behind {detect_document_text}: the request body,
 * the key header, pages asked five at a time up to the document's last, and a refusal of the
 * service giving the template an empty array.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createEngine } from '../../../src/index.js';
import { VisionOcr } from '../../../src/host-adapters/documents/vision.js';
import { TenantFiles } from '../../../src/host-adapters/files/tenant-files.js';
import { parseVirtualPath } from '../../../src/host-adapters/files/virtual-path.js';
import { startServer, testGuard, type TestServer } from './support.js';

interface AnnotateRequest {
  requests: { inputConfig: { content: string; mimeType: string }; features: { type: string }[]; pages: number[] }[];
}

const TOTAL_PAGES = 7;
let server: TestServer;
let dir: string;

beforeAll(async () => {
  server = await startServer('127.0.0.1', {
    '/v1/files:annotate': (q, res) => {
      res.setHeader('content-type', 'application/json');
      const body = JSON.parse(q.body) as AnnotateRequest;
      const r = body.requests[0]!;
      if (Buffer.from(r.inputConfig.content, 'base64').toString('latin1').includes('BROKEN')) {
        res.end(JSON.stringify({ responses: [{ error: { code: 3, message: 'Bad image data.' } }] }));
        return;
      }
      const pages = r.pages.filter((p) => p <= TOTAL_PAGES);
      // answered out of order: the adapter sorts by pageNumber
      const responses = pages
        .reverse()
        .map((p) => ({ fullTextAnnotation: { text: `text of page ${p}\n` }, context: { pageNumber: p } }));
      res.end(JSON.stringify({ responses: [{ responses, totalPages: TOTAL_PAGES }] }));
    },
  });
  dir = mkdtempSync(path.join(tmpdir(), 'smartcage-vision-'));
});
afterAll(async () => {
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const vision = (): VisionOcr =>
  new VisionOcr({ endpoint: `${server.origin}/v1`, apiKey: 'test-key', http: testGuard([server.port]) });
const pdf = Buffer.from('%PDF-1.4\n% a document the test server reads by its page count\n');

describe('VisionOcr', () => {
  it('asks files:annotate for DOCUMENT_TEXT_DETECTION five pages at a time, up to the last page, with the key header', async () => {
    server.seen.length = 0;
    const pages = await vision().detect({ data: pdf, kind: 'pdf', maxPages: 20, timeoutMs: 10_000 });
    expect(pages).toEqual([1, 2, 3, 4, 5, 6, 7].map((p) => `text of page ${p}`));
    expect(server.seen.map((s) => (JSON.parse(s.body) as AnnotateRequest).requests[0]!.pages)).toEqual([
      [1, 2, 3, 4, 5],
      [6, 7, 8, 9, 10],
    ]);
    const first = JSON.parse(server.seen[0]!.body) as AnnotateRequest;
    expect(first.requests[0]!.features).toEqual([{ type: 'DOCUMENT_TEXT_DETECTION' }]);
    expect(first.requests[0]!.inputConfig).toEqual({ content: pdf.toString('base64'), mimeType: 'application/pdf' });
    expect(server.seen[0]!.headers['x-goog-api-key']).toBe('test-key');
  });

  it('stops at maxPages', async () => {
    server.seen.length = 0;
    expect(await vision().detect({ data: pdf, kind: 'tiff', maxPages: 3, timeoutMs: 10_000 })).toHaveLength(3);
    expect(server.seen).toHaveLength(1);
    expect((JSON.parse(server.seen[0]!.body) as AnnotateRequest).requests[0]!.inputConfig.mimeType).toBe('image/tiff');
  });

  it('goes through the egress guard: a service on a refused address is never reached', async () => {
    const refused = new VisionOcr({ endpoint: `http://127.0.0.3:${server.port}/v1`, http: testGuard([server.port]) });
    await expect(refused.detect({ data: pdf, kind: 'pdf', maxPages: 1, timeoutMs: 5_000 })).rejects.toMatchObject({
      code: 'E_SSRF_DENIED',
    });
  });

  it('serves {detect_document_text}; a document the service refuses is an empty array and a warning', async () => {
    const files = new TenantFiles({ rootDir: dir, quotaBytes: 1 << 24, maxReadBytes: 1 << 24, maxEntries: 100 });
    await files.writeAtomic(parseVirtualPath('/files/d/a.pdf'), pdf);
    await files.writeAtomic(parseVirtualPath('/files/d/broken.pdf'), Buffer.from('%PDF-1.4 BROKEN'));
    const engine = createEngine({ host: { files, ocr: vision() }, workers: 1 });
    try {
      const identity = { tenant: 'shop', context: 'admin-test' as const };
      const r = await engine.render(
        '{detect_document_text var=t dir="/files/d" file_nm="a.pdf" type="array"}{$t|@count} {$t.6.page}:{$t.6.value}',
        { identity },
      );
      expect(r.output).toBe('7 7:text of page 7');
      const broken = await engine.render(
        '{detect_document_text var=t dir="/files/d" file_nm="broken.pdf"}{$t|@count}',
        { identity },
      );
      expect(broken.output).toBe('0');
      expect(JSON.stringify(broken.logs)).toContain('could not be read');
    } finally {
      await engine.close();
    }
  });
});
