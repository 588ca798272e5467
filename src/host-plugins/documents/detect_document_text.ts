/**
 * {detect_document_text var=t dir=/files/topics (file_nm=x.pdf | module_id=N ext_id=M [no=K] [lang=en])
 * [type=text|array] [no_cache=true]}: the text of a PDF or TIFF of the site's files, read by the
 * host's OCR (HostAdapters.ocr) and kept in HostAdapters.documentTexts until the file changes.
 *
 * Rules (docs/decisions.md D87-D89):
 *  - Only in batch and admin-test renders: E_PERMISSION_DENIED in a web render.
 *  - Which file: `{dir}/{file_nm}` (one file name, no folders), else the content file of a
 *    module (CONTENT_FILE_NAME): `{module_id}_ext_{ext_id}[_{no}][_{lang}].{pdf,tiff,tif}`, the first
 *    extension that exists. `no` defaults to 0 under /files/topics and to none elsewhere; `lang`
 *    adds its suffix only when it is not the site's language. `slug` names the extended column
 *    instead of ext_id (contents only: its id is looked up in the content's group).
 *  - Unsupported input (another extension, content that is not a PDF or TIFF), a missing file or
 *    an OCR failure: the variable gets an empty array (spec "Errors"), a failure with a warning.
 *    Refusals stay errors: attributes, paths, the web context, a file over MAX_DOCUMENT_BYTES,
 *    a busy OCR service.
 *  - type=text: the pages' texts joined by "\n\n"; type=array: [{page: 1, value: ...}, ...].
 *  - At most MAX_DOCUMENT_PAGES pages are read. no_cache=true reads again (and stores the result).
 */
import { createHash } from 'node:crypto';
import { implement, type BridgeCall } from '../plugin-contract.js';
import { BridgeError } from '../../host-api/errors.js';
import { FileError } from '../../host-adapters/files/errors.js';
import { missingAdapter } from '../../host-api/capabilities.js';
import { joinSegment, type VirtualPath } from '../../host-adapters/files/virtual-path.js';
import type { FileStore } from '../../host-adapters/files/file-store.js';
import { PhpArray, type Value } from '../../value/value.js';
import type { OcrRequest } from '../../host-api/adapters/documents.js';
import { given, pathAttr, tenantFiles } from '../files/common.js';
import declaration from '../../plugins/host-documents/detect_document_text.js';

export const MAX_DOCUMENT_BYTES = 20 * 1024 * 1024;
export const MAX_DOCUMENT_PAGES = 20;
const PLUGIN = 'detect_document_text';
const EXTENSIONS = ['pdf', 'tiff', 'tif'] as const;
/** Codes of the OCR service that are refusals, not "other errors". */
const REFUSALS = new Set(['E_HOST_BUSY', 'E_WALL_TIMEOUT', 'E_SIZE_LIMIT']);

function kindOf(name: string, data?: Uint8Array): OcrRequest['kind'] | null {
  const ext = /\.([A-Za-z]+)$/.exec(name)?.[1]?.toLowerCase();
  const kind = ext === 'pdf' ? 'pdf' : ext === 'tif' || ext === 'tiff' ? 'tiff' : null;
  if (kind === null || data === undefined) return kind;
  const head = Buffer.from(data.subarray(0, 5)).toString('latin1');
  if (kind === 'pdf') return head === '%PDF-' ? kind : null;
  return head.startsWith('II*\0') || head.startsWith('MM\0*') ? kind : null;
}

function intAttr(v: Value | undefined): number | null {
  return given(v) ? Number(v) : null;
}

/** The extended column's id: ext_id, or the column named by slug in the content's group. */
async function columnId(
  attrs: Record<string, Value>,
  call: BridgeCall,
  dir: VirtualPath,
  moduleId: number,
): Promise<number | null> {
  if (given(attrs.ext_id)) {
    if (given(attrs.slug)) throw new BridgeError('E_BAD_COMBINATION', `{${PLUGIN}} takes ext_id or slug, not both`);
    return Number(attrs.ext_id);
  }
  if (!given(attrs.slug))
    throw new BridgeError(
      'E_BAD_ATTRIBUTE',
      `{${PLUGIN}} module_id needs ext_id or slug (which extended column holds the file)`,
    );
  if (dir.text !== '/files/topics')
    throw new BridgeError(
      'E_BAD_COMBINATION',
      `{${PLUGIN}} slug names a column of a content: dir must be /files/topics`,
    );
  const content = call.host.content;
  if (!content) throw missingAdapter(`{${PLUGIN}} slug`, 'content');
  const [topic] = await content.topics([moduleId]);
  if (!topic) return null;
  const column = (await content.columns(topic.groupId)).find((c) => c.slug === attrs.slug);
  return column ? column.id : null;
}

/** The file the attributes name, or null when there is none (a missing file is not an error). */
async function findFile(attrs: Record<string, Value>, call: BridgeCall, files: FileStore): Promise<VirtualPath | null> {
  const dir = pathAttr(PLUGIN, 'dir', attrs);
  if (given(attrs.file_nm)) {
    if (given(attrs.module_id))
      throw new BridgeError('E_BAD_COMBINATION', `{${PLUGIN}} takes file_nm or module_id, not both`);
    return joinSegment(dir, attrs.file_nm, { plugin: PLUGIN, attr: 'file_nm' });
  }
  if (!given(attrs.module_id)) throw new BridgeError('E_BAD_ATTRIBUTE', `{${PLUGIN}} needs file_nm or module_id`);
  const moduleId = Number(attrs.module_id);
  const column = await columnId(attrs, call, dir, moduleId);
  if (column === null) return null;
  const no = intAttr(attrs.no) ?? (dir.text === '/files/topics' ? 0 : null);
  const lang = given(attrs.lang) && attrs.lang !== call.render.lang ? String(attrs.lang) : null;
  const base = `${moduleId}_ext_${column}${no !== null ? `_${no}` : ''}${lang !== null ? `_${lang}` : ''}`;
  for (const ext of EXTENSIONS) {
    const p = joinSegment(dir, `${base}.${ext}`, { plugin: PLUGIN, attr: 'module_id' });
    try {
      await files.stat(p);
      return p;
    } catch (e) {
      if (!(e instanceof FileError && e.code === 'E_FILE_NOT_FOUND')) throw e;
    }
  }
  return null;
}

async function readDocument(files: FileStore, p: VirtualPath): Promise<Uint8Array | null> {
  try {
    const st = await files.stat(p);
    if (st.isDir) return null;
    if (st.size > MAX_DOCUMENT_BYTES)
      throw new FileError(
        'E_SIZE_LIMIT',
        p.text,
        `is ${st.size} bytes, over the limit of ${MAX_DOCUMENT_BYTES} for OCR`,
        { plugin: PLUGIN, attr: 'file_nm', reason: 'size' },
      );
    return await files.read(p);
  } catch (e) {
    if (e instanceof FileError && e.code === 'E_FILE_NOT_FOUND') return null;
    throw e;
  }
}

async function pagesOf(
  call: BridgeCall,
  p: VirtualPath,
  data: Uint8Array,
  kind: OcrRequest['kind'],
  noCache: boolean,
): Promise<string[]> {
  const ocr = call.host.ocr!;
  const cache = call.host.documentTexts;
  const key = { path: p.text, sha256: createHash('sha256').update(data).digest('hex'), engine: ocr.engine };
  if (cache && !noCache) {
    const hit = await cache.get(key);
    if (hit) return hit;
  }
  const pages = (
    await ocr.detect({
      data,
      kind,
      maxPages: MAX_DOCUMENT_PAGES,
      timeoutMs: call.timeLeft(),
      signal: call.signal,
    })
  ).slice(0, MAX_DOCUMENT_PAGES);
  if (cache) await cache.put(key, pages);
  return pages;
}

export const detectDocumentText = implement(declaration, async (attrs, call) => {
  if (call.identity.context === 'web')
    throw new BridgeError('E_PERMISSION_DENIED', `{${PLUGIN}} runs only in batch processing and the admin test screen`);
  const target = String(attrs.var);
  const empty = (message?: string): { assign: [string, Value][]; log?: { level: 'warning'; message: string }[] } => ({
    assign: [[target, PhpArray.empty()]],
    ...(message ? { log: [{ level: 'warning' as const, message: `{${PLUGIN}} ${message}` }] } : {}),
  });
  const files = tenantFiles(call, PLUGIN);
  const p = await findFile(attrs, call, files);
  if (p === null || kindOf(p.text) === null) return empty();
  const data = await readDocument(files, p);
  const kind = data === null ? null : kindOf(p.text, data);
  if (data === null || kind === null) return empty();
  let pages: string[];
  try {
    pages = await pagesOf(call, p, data, kind, attrs.no_cache === true);
  } catch (e) {
    const code = (e as { code?: unknown } | null)?.code;
    if (typeof code === 'string' && REFUSALS.has(code)) throw e;
    return empty(`${p.text} could not be read (the variable is an empty array)`);
  }
  if (attrs.type === 'array') {
    return {
      assign: [
        [
          target,
          PhpArray.fromList(
            pages.map((value, i) =>
              PhpArray.fromEntries([
                ['page', i + 1],
                ['value', value],
              ]),
            ),
          ),
        ],
      ],
    };
  }
  return { assign: [[target, pages.join('\n\n')]] };
});
