/**
 * {detect_document_text} on the local site, on both store backends: real tesseract and pdftoppm
 * over PDFs and a TIFF the test makes, the texts kept in the site's `document_texts` rows until the
 * file changes (tesseract runs are counted), and each rule of the plugin tried with a value that
 * breaks it. Also {generate_pdf} capturing the site's own page, which its root_url serves from
 * the site's files.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createEngine, type Engine } from '../../../src/index.js';
import { TesseractOcr } from '../../../src/host-adapters/documents/tesseract.js';
import { parseVirtualPath } from '../../../src/host-adapters/files/virtual-path.js';
import { eachBackend, sampleSite } from '../support/backends.js';
import { makePdf, pdfToTiff } from '../../plugins/documents/fixtures.js';
import { readPdf } from '../../plugins/documents/support.js';

let twoPages: Uint8Array;
let onePage: Uint8Array;
let tiff: Uint8Array;

beforeAll(async () => {
  twoPages = await makePdf(['INVOICE NUMBER 4711', 'TOTAL AMOUNT 950 YEN']);
  onePage = await makePdf(['DELIVERY NOTE 2024']);
  tiff = pdfToTiff(onePage);
}, 60_000);

const ocrTemps = (): number => readdirSync(tmpdir()).filter((f) => f.startsWith('smartcage-ocr-')).length;

eachBackend('detect_document_text', (backend) => {
  let site: Awaited<ReturnType<typeof sampleSite>>;
  let engine: Engine;
  let runs = 0;

  beforeAll(async () => {
    site = await sampleSite(backend);
    const ocr = new TesseractOcr({ onRun: () => runs++ });
    engine = createEngine({
      ...site.engineOptions(),
      host: { ...site.host, ocr },
      workers: 1,
      limits: { wallMs: 60_000 },
    });
  });
  afterAll(async () => {
    await engine?.close();
    await site?.done();
  });

  const put = (p: string, data: Uint8Array | string): Promise<void> =>
    site.host.files!.writeAtomic(parseVirtualPath(p), typeof data === 'string' ? Buffer.from(data) : data);
  const batch = (src: string): Promise<string> =>
    engine.render(src, { identity: site.identity({ context: 'batch' }) }).then((r) => r.output);

  it('reads a PDF back, pages joined by two newlines (text) or as {page, value} (array), and keeps the text', async () => {
    await put('/files/d/invoice.pdf', twoPages);
    const before = ocrTemps();
    runs = 0;
    const text = await batch('{detect_document_text var=t dir="/files/d" file_nm="invoice.pdf"}{$t}');
    expect(text).toMatch(/INVOICE NUMBER 4711\n\nTOTAL AMOUNT 950 YEN/);
    expect(runs).toBe(2);
    expect(ocrTemps()).toBe(before);
    const array = await batch(
      '{detect_document_text var=t dir="/files/d" file_nm="invoice.pdf" type="array"}{foreach from=$t item=p}{$p.page}:{$p.value}|{/foreach}',
    );
    expect(array).toMatch(/^1:INVOICE NUMBER 4711\|2:TOTAL AMOUNT 950 YEN\|$/);
    expect(runs).toBe(2);
    const stored = await site.db.all<{ path: string }>('SELECT path FROM document_texts WHERE tenant = ?', [
      site.tenant,
    ]);
    expect(stored.map((r) => r.path)).toEqual(['/files/d/invoice.pdf']);
  }, 60_000);

  it('reads again when the file changes, and with no_cache', async () => {
    runs = 0;
    await put('/files/d/invoice.pdf', onePage);
    expect(await batch('{detect_document_text var=t dir="/files/d" file_nm="invoice.pdf"}{$t}')).toMatch(
      /^DELIVERY NOTE 2024$/,
    );
    expect(runs).toBe(1);
    await batch('{detect_document_text var=t dir="/files/d" file_nm="invoice.pdf"}');
    expect(runs).toBe(1);
    await batch('{detect_document_text var=t dir="/files/d" file_nm="invoice.pdf" no_cache=true}');
    expect(runs).toBe(2);
  }, 60_000);

  it('reads a TIFF', async () => {
    await put('/files/inquiry/scan.tiff', tiff);
    expect(await batch('{detect_document_text var=t dir="/files/inquiry" file_nm="scan.tiff"}{$t}')).toMatch(
      /DELIVERY NOTE 2024/,
    );
  }, 60_000);

  it("finds a content's file by module_id with ext_id or the column's slug, no defaulting to 0 under /files/topics", async () => {
    await put('/files/topics/1_ext_3_0.pdf', onePage);
    await put('/files/topics/1_ext_3_2_en.pdf', onePage);
    expect(await batch('{detect_document_text var=t dir="/files/topics" module_id=1 ext_id=3}{$t}')).toMatch(
      /DELIVERY NOTE 2024/,
    );
    expect(
      await batch(
        '{detect_document_text var=t dir="/files/topics" module_id=1 slug="related_links" no=2 lang="en"}{$t}',
      ),
    ).toMatch(/DELIVERY NOTE 2024/);
    // the site's own language adds no suffix, so this names 1_ext_3_2.pdf, which does not exist
    expect(
      await batch(
        '{detect_document_text var=t dir="/files/topics" module_id=1 slug="related_links" no=2 lang="ja"}{$t|@count}',
      ),
    ).toBe('0');
    expect(
      await batch('{detect_document_text var=t dir="/files/topics" module_id=1 slug="no_such_column"}{$t|@count}'),
    ).toBe('0');
  }, 60_000);

  it('gives an empty array for a missing file, another format, and content that is not what its name says', async () => {
    await put('/files/d/notes.txt', 'INVOICE');
    await put('/files/d/fake.pdf', 'INVOICE NUMBER 1, not a PDF');
    runs = 0;
    for (const name of ['missing.pdf', 'notes.txt', 'fake.pdf']) {
      expect(
        await batch(`{detect_document_text var=t dir="/files/d" file_nm="${name}"}{if is_array($t)}[{$t|@count}]{/if}`),
        name,
      ).toBe('[0]');
    }
    expect(runs).toBe(0);
  });

  it('is refused in a web render, and refuses bad attributes at their line', async () => {
    await expect(
      engine.render('\n{detect_document_text var=t dir="/files/d" file_nm="invoice.pdf"}', {
        identity: site.identity(),
      }),
    ).rejects.toMatchObject({ code: 'E_PERMISSION_DENIED', line: 2 });
    const bad: [string, string][] = [
      ['dir="/files/user" file_nm="a.pdf"', 'E_BAD_ATTR'],
      ['dir="/files/d"', 'E_BAD_ATTRIBUTE'],
      ['dir="/files/d" file_nm="a.pdf" module_id=1', 'E_BAD_COMBINATION'],
      ['dir="/files/d" file_nm="../topics/1_ext_3_0.pdf"', 'E_PATH_DENIED'],
      ['dir="/files/d" file_nm="x/a.pdf"', 'E_PATH_DENIED'],
      ['dir="/files/d" module_id=1', 'E_BAD_ATTRIBUTE'],
      ['dir="/files/d" module_id=1 ext_id=1 slug="author"', 'E_BAD_COMBINATION'],
      ['dir="/files/d" module_id=1 slug="author"', 'E_BAD_COMBINATION'],
      ['dir="/files/d" file_nm="a.pdf" type="csv"', 'E_BAD_ATTR'],
    ];
    for (const [attrs, code] of bad)
      await expect(batch(`\n{detect_document_text var=t ${attrs}}`), attrs).rejects.toMatchObject({ code, line: 2 });
  });

  it('refuses a file over the size cap before reading it', async () => {
    await put('/files/d/big.pdf', Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(20 * 1024 * 1024)]));
    await expect(batch('{detect_document_text var=t dir="/files/d" file_nm="big.pdf"}')).rejects.toMatchObject({
      code: 'E_SIZE_LIMIT',
    });
  });

  it('keeps the texts per tenant: another site with the same file and content does not see them', async () => {
    const other = await sampleSite(backend);
    try {
      const key = { path: '/files/d/invoice.pdf', engine: 'tesseract:jpn+eng', sha256: 'a'.repeat(64) };
      await site.host.documentTexts!.put(key, ['mine']);
      expect(await site.host.documentTexts!.get(key)).toEqual(['mine']);
      expect(await other.host.documentTexts!.get(key)).toBeNull();
    } finally {
      await other.done();
    }
  });

  it("generate_pdf captures the site's own page, served from its public files", async () => {
    const out = await engine.render(
      '{generate_pdf url="http://localhost:8080/files/user/sample-page.html" path="files/g/private/sample.pdf"}ok',
      { identity: site.identity({ context: 'batch' }) },
    );
    expect(out.output).toBe('ok');
    const pdf = readPdf(await site.host.files!.read(parseVirtualPath('/files/g/private/sample.pdf')));
    expect(pdf.text).toContain('Sample page');
    await expect(
      engine.render('{generate_pdf url="http://localhost:8080/rcms-api/1/news" path="files/g/private/api.pdf"}', {
        identity: site.identity({ context: 'batch' }),
      }),
    ).resolves.toBeDefined();
  }, 60_000);
});
