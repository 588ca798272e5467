/**
 * The documents family's adapters: the headless browser of {generate_pdf} (HostAdapters.browser),
 * the OCR service of {detect_document_text} (HostAdapters.ocr) and the store its results are kept
 * in (HostAdapters.documentTexts). The plugins own the rules (which URL, which file, clamps, caps,
 * the batch-or-admin-test rule); an adapter only does the work it is handed, for its tenant.
 *
 * Implementations: ChromiumBrowser (documents/chromium.ts), TesseractOcr (documents/tesseract.ts)
 * and VisionOcr (documents/vision.ts); the local site keeps the texts in its store.
 */
import type { EgressRequest, EgressResponse } from '../../host-adapters/egress/guard.js';

export type CaptureFormat = 'pdf' | 'png' | 'jpeg' | 'webp';

/** One page to capture, already checked and clamped by {generate_pdf}. */
export interface CaptureJob {
  url: string;
  /** Viewport in CSS pixels. */
  width: number;
  height: number;
  /** Waited after the page has loaded, before the capture. */
  sleepMs: number;
  /** User-Agent of every request of the page; null: the browser's own. */
  userAgent: string | null;
  /** Cookies set before the page loads, each for `domain` (the plugin's domain, else the URL's host). */
  cookies: readonly { name: string; value: string; domain: string }[];
  format: CaptureFormat;
  /** The capture is abandoned (and its page closed) after this long: the render's wall time left. */
  timeoutMs: number;
  /** The render's signal (D152): once aborted, the capture is abandoned and its page closed, as at its timeout. */
  signal?: AbortSignal;
  /** A capture larger than this is refused (E_SIZE_LIMIT), never handed back. */
  maxBytes: number;
  /**
   * Every request the page makes (the document, subresources, redirects) is answered by this,
   * never by the browser's own network stack: the render's egress guard (HostAdapters.http), so
   * the page reaches nothing the guard would refuse. A rejection fails that request only.
   */
  fetch(req: EgressRequest): Promise<EgressResponse>;
}

/**
 * {generate_pdf}: a headless browser. `capture` answers the bytes of the PDF or image; it rejects
 * with a BridgeError (E_HOST_BUSY when its pages and their queue are full, E_WALL_TIMEOUT when
 * the page outlives `timeoutMs`, E_SIZE_LIMIT past `maxBytes`, E_HTTP_FAILED when the page itself
 * could not be loaded) or with an error whose message is not shown. `close` ends the browser; a later capture starts it again
 * (the engine calls it when it closes).
 */
export interface BrowserAdapter {
  capture(job: CaptureJob): Promise<Uint8Array>;
  close?(): Promise<void>;
}

/** One document to read, already checked by {detect_document_text}. */
export interface OcrRequest {
  /** The whole file (at most the plugin's size cap). */
  data: Uint8Array;
  kind: 'pdf' | 'tiff';
  /** Pages past this many are not read. */
  maxPages: number;
  /** Abandoned after this long (processes killed, requests aborted). */
  timeoutMs: number;
  /** The render's signal (D152): once aborted, the OCR stops as at its timeout (processes killed, temp files removed). */
  signal?: AbortSignal;
}

/**
 * {detect_document_text}: reads the text of a PDF or TIFF, one string per page, in page order.
 * Rejects when the document cannot be read (the plugin then answers an empty array, as the spec
 * says of "other errors"), or with BridgeError E_HOST_BUSY when its workers are full.
 */
export interface OcrAdapter {
  /** Which engine reads: part of the cache key, so that texts of another engine are not reused. */
  readonly engine: string;
  detect(req: OcrRequest): Promise<string[]>;
}

/** What a cached text belongs to: the file, its content and the engine that read it. */
export interface DocumentTextKey {
  /** Canonical virtual path. */
  path: string;
  /** SHA-256 of the content (hex): a changed file misses the cache. */
  sha256: string;
  engine: string;
}

/**
 * The texts {detect_document_text} has read, kept for the tenant until the file changes: `get`
 * answers the pages stored for exactly this key, or null; `put` replaces what was stored for the
 * path. Absent: nothing is cached (every call reads the document again).
 */
export interface DocumentTextsAdapter {
  get(key: DocumentTextKey): Promise<string[] | null>;
  put(key: DocumentTextKey, pages: readonly string[]): Promise<void>;
}
