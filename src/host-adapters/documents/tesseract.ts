/**
 * TesseractOcr: the OcrAdapter over Debian's tesseract-ocr (with tesseract-ocr-jpn) and
 * poppler-utils. A PDF is rendered page by page by `pdftoppm` (the longer side scaled to
 * RENDER_PIXELS, at most `maxPages` pages), each page read by `tesseract`; a TIFF is read by
 * `tesseract` directly (its pages come back separated by form feeds). Everything happens in a
 * temporary folder of its own, removed afterwards; each process is killed at the job's deadline.
 * At most `jobs` documents are read at once (the tools are CPU-bound), `queue` more may wait.
 */
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { OcrAdapter, OcrRequest } from '../../host-api/adapters/documents.js';
import { runProcess } from './run-process.js';
import { Slots } from './slots.js';

export interface TesseractOptions {
  /** Default /usr/bin/tesseract. */
  tesseract?: string;
  /** Default /usr/bin/pdftoppm. */
  pdftoppm?: string;
  /** Tesseract languages, default jpn+eng. */
  languages?: readonly string[];
  /** Documents read at once, default 1. */
  jobs?: number;
  /** Documents waiting, default 4; past it E_HOST_BUSY. */
  queue?: number;
  /** Called once per tesseract process (tests count the runs). */
  onRun?: () => void;
}

/** The longer side of a rendered PDF page, in pixels (about 200 dpi for A4). */
const RENDER_PIXELS = 2400;
/** What one tool may print. */
const MAX_TOOL_OUTPUT = 4 * 1024 * 1024;

export class TesseractOcr implements OcrAdapter {
  readonly engine: string;
  private readonly slots: Slots;
  private readonly tesseract: string;
  private readonly pdftoppm: string;
  private readonly languages: string;

  constructor(private readonly options: TesseractOptions = {}) {
    this.tesseract = options.tesseract ?? '/usr/bin/tesseract';
    this.pdftoppm = options.pdftoppm ?? '/usr/bin/pdftoppm';
    this.languages = (options.languages ?? ['jpn', 'eng']).join('+');
    this.engine = `tesseract:${this.languages}`;
    this.slots = new Slots(options.jobs ?? 1, options.queue ?? 4, '{detect_document_text} OCR');
  }

  detect(req: OcrRequest): Promise<string[]> {
    const deadline = Date.now() + req.timeoutMs;
    return this.slots.run(req.timeoutMs, async () => {
      const dir = await mkdtemp(path.join(tmpdir(), 'smartcage-ocr-'));
      try {
        const input = path.join(dir, req.kind === 'pdf' ? 'in.pdf' : 'in.tiff');
        await writeFile(input, req.data);
        if (req.kind === 'tiff') return (await this.read(input, dir, deadline, req.signal)).slice(0, req.maxPages);
        await runProcess(
          this.pdftoppm,
          [
            '-f',
            '1',
            '-l',
            String(req.maxPages),
            '-scale-to',
            String(RENDER_PIXELS),
            '-png',
            input,
            path.join(dir, 'page'),
          ],
          { cwd: dir, timeoutMs: deadline - Date.now(), maxOutputBytes: MAX_TOOL_OUTPUT, signal: req.signal },
        );
        // pdftoppm numbers pages page-1.png or page-01.png (padded to the page count's width).
        const images = (await readdir(dir))
          .filter((f) => /^page-\d+\.png$/.test(f))
          .sort((a, b) => pageNo(a) - pageNo(b));
        const pages: string[] = [];
        for (const image of images)
          pages.push((await this.read(path.join(dir, image), dir, deadline, req.signal)).join('\n'));
        return pages;
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });
  }

  /** The pages tesseract reads in one image file. */
  private async read(image: string, dir: string, deadline: number, signal: AbortSignal | undefined): Promise<string[]> {
    this.options.onRun?.();
    // One thread: jobs are the unit of parallelism, and OpenMP would take every core.
    const out = await runProcess(this.tesseract, [image, 'stdout', '-l', this.languages], {
      cwd: dir,
      timeoutMs: deadline - Date.now(),
      maxOutputBytes: MAX_TOOL_OUTPUT,
      env: { OMP_THREAD_LIMIT: '1' },
      signal,
    });
    const pages = out
      .toString('utf8')
      .split('\f')
      .map((t) => t.replace(/\s+$/, ''));
    if (pages.length > 1 && pages[pages.length - 1] === '') pages.pop();
    return pages;
  }
}

function pageNo(file: string): number {
  return Number(/(\d+)\.png$/.exec(file)![1]);
}
