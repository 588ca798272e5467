/**
 * VisionOcr: the OcrAdapter over a Vision-API-compatible REST service: `POST {endpoint}/files:annotate`
 * with DOCUMENT_TEXT_DETECTION for PDF and TIFF input, at most FILES_PER_REQUEST pages a request
 * (the service's limit for inline files), in order until the document's last page or `maxPages`.
 * Requests go through the host's egress guard (`http`); the API key, if any, travels in the
 * x-goog-api-key header, marked secret so that no redirect to another origin carries it.
 */
import type { EgressRequest, EgressResponse } from '../egress/guard.js';
import type { OcrAdapter, OcrRequest } from '../../host-api/adapters/documents.js';

export interface VisionOptions {
  /** Base URL, e.g. https://vision.googleapis.com/v1 (no trailing slash). */
  endpoint: string;
  apiKey?: string;
  http: { fetch(req: EgressRequest): Promise<EgressResponse> };
}

/** Pages the service reads per files:annotate request. */
const FILES_PER_REQUEST = 5;

interface PageAnswer {
  fullTextAnnotation?: { text?: string };
  context?: { pageNumber?: number };
  error?: { message?: string };
}
interface FileAnswer {
  responses?: PageAnswer[];
  totalPages?: number;
  error?: { message?: string };
}

export class VisionOcr implements OcrAdapter {
  readonly engine = 'vision';

  constructor(private readonly options: VisionOptions) {}

  async detect(req: OcrRequest): Promise<string[]> {
    const deadline = Date.now() + req.timeoutMs;
    const content = Buffer.from(req.data).toString('base64');
    const mimeType = req.kind === 'pdf' ? 'application/pdf' : 'image/tiff';
    const pages: string[] = [];
    for (let first = 1; first <= req.maxPages; first += FILES_PER_REQUEST) {
      const wanted = Array.from({ length: Math.min(FILES_PER_REQUEST, req.maxPages - first + 1) }, (_, i) => first + i);
      const answer = await this.annotate(
        {
          requests: [
            { inputConfig: { content, mimeType }, features: [{ type: 'DOCUMENT_TEXT_DETECTION' }], pages: wanted },
          ],
        },
        deadline,
        req.signal,
      );
      if (answer.error)
        throw new Error(`the OCR service refused the document: ${answer.error.message ?? 'no reason given'}`);
      const got = [...(answer.responses ?? [])].sort(
        (a, b) => (a.context?.pageNumber ?? 0) - (b.context?.pageNumber ?? 0),
      );
      for (const page of got) {
        if (page.error) throw new Error(`the OCR service could not read page ${page.context?.pageNumber ?? '?'}`);
        pages.push((page.fullTextAnnotation?.text ?? '').replace(/\s+$/, ''));
      }
      const total = answer.totalPages ?? 0;
      if (got.length < wanted.length || first + FILES_PER_REQUEST > total) break;
    }
    return pages;
  }

  private async annotate(body: unknown, deadline: number, signal: AbortSignal | undefined): Promise<FileAnswer> {
    const key = this.options.apiKey;
    const res = await this.options.http.fetch({
      method: 'POST',
      url: `${this.options.endpoint}/files:annotate`,
      headers: [['content-type', 'application/json'], ...(key ? [['x-goog-api-key', key] as [string, string]] : [])],
      body: JSON.stringify(body),
      timeoutMs: Math.max(1, deadline - Date.now()),
      ...(signal ? { signal } : {}),
      ...(key ? { secretHeaders: ['x-goog-api-key'] } : {}),
    });
    if (res.status !== 200) throw new Error(`the OCR service answered ${res.status}`);
    const json = JSON.parse(Buffer.from(res.body).toString('utf8')) as { responses?: FileAnswer[] };
    const file = json.responses?.[0];
    if (!file) throw new Error('the OCR service answered no file');
    return file;
  }
}
