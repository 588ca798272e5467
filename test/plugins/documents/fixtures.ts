/**
 * Documents the OCR tests read: PDFs printed by Chromium from HTML in a large font (so that
 * tesseract reads them back reliably), and a TIFF of one page rendered by pdftoppm.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ChromiumBrowser } from '../../../src/host-adapters/documents/chromium.js';

/** A PDF of `pages`, one page each, every page's text in 60px letters. */
export async function makePdf(pages: readonly string[]): Promise<Uint8Array> {
  const browser = new ChromiumBrowser();
  const body = pages
    .map((p, i) => `<p style="font: bold 60px sans-serif;${i > 0 ? ' page-break-before: always;' : ''}">${p}</p>`)
    .join('');
  try {
    return await browser.capture({
      url: 'http://fixtures.invalid/doc.html',
      width: 1000,
      height: 800,
      sleepMs: 0,
      userAgent: null,
      cookies: [],
      format: 'pdf',
      timeoutMs: 30_000,
      maxBytes: 1 << 24,
      fetch: async (req) => ({
        status: 200,
        headers: [['content-type', 'text/html; charset=utf-8']],
        body: Buffer.from(`<!doctype html><meta charset="utf-8">${body}`),
        url: req.url,
        redirects: 0,
      }),
    });
  } finally {
    await browser.close();
  }
}

/** The first page of a PDF as a TIFF (pdftoppm -tiff). */
export function pdfToTiff(pdf: Uint8Array): Uint8Array {
  const dir = mkdtempSync(path.join(tmpdir(), 'smartcage-tiff-'));
  try {
    writeFileSync(path.join(dir, 'in.pdf'), pdf);
    execFileSync('pdftoppm', [
      '-tiff',
      '-r',
      '150',
      '-f',
      '1',
      '-l',
      '1',
      '-singlefile',
      path.join(dir, 'in.pdf'),
      path.join(dir, 'out'),
    ]);
    return readFileSync(path.join(dir, 'out.tif'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
