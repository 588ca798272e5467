/**
 * The Content-Type a stored file is served with: from its first bytes when they name a common
 * format (the content decides, so a `.txt` that is really a PNG is served as an image), else from
 * the file name's extension, else application/octet-stream. Text is never guessed from content:
 * an extension says `text/...`, nothing else does (a browser must not be told to render HTML that
 * only looks like HTML).
 */

const MAGIC: readonly { type: string; at?: number; bytes: readonly number[] }[] = [
  { type: 'image/png', bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  { type: 'image/jpeg', bytes: [0xff, 0xd8, 0xff] },
  { type: 'image/gif', bytes: [0x47, 0x49, 0x46, 0x38] },
  { type: 'application/pdf', bytes: [0x25, 0x50, 0x44, 0x46, 0x2d] },
  { type: 'application/zip', bytes: [0x50, 0x4b, 0x03, 0x04] },
  { type: 'application/gzip', bytes: [0x1f, 0x8b] },
  { type: 'image/tiff', bytes: [0x49, 0x49, 0x2a, 0x00] },
  { type: 'image/tiff', bytes: [0x4d, 0x4d, 0x00, 0x2a] },
  { type: 'image/bmp', bytes: [0x42, 0x4d] },
  { type: 'audio/mpeg', bytes: [0x49, 0x44, 0x33] },
  { type: 'audio/ogg', bytes: [0x4f, 0x67, 0x67, 0x53] },
];

/** RIFF and ISO-BMFF containers: the type is named a few bytes in. */
function container(b: Uint8Array): string | null {
  const ascii = (from: number, to: number) => String.fromCharCode(...b.subarray(from, to));
  if (b.length >= 12 && ascii(0, 4) === 'RIFF') {
    const kind = ascii(8, 12);
    if (kind === 'WEBP') return 'image/webp';
    if (kind === 'WAVE') return 'audio/wav';
  }
  if (b.length >= 12 && ascii(4, 8) === 'ftyp') {
    const brand = ascii(8, 12);
    if (brand === 'avif') return 'image/avif';
    if (brand.startsWith('heic') || brand === 'heix') return 'image/heic';
    return 'video/mp4';
  }
  return null;
}

const BY_EXTENSION: Readonly<Record<string, string>> = {
  txt: 'text/plain; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  tsv: 'text/tab-separated-values; charset=utf-8',
  html: 'text/html; charset=utf-8',
  htm: 'text/html; charset=utf-8',
  css: 'text/css; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  json: 'application/json',
  jsonl: 'application/jsonl',
  xml: 'application/xml',
  md: 'text/markdown; charset=utf-8',
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  pdf: 'application/pdf',
  zip: 'application/zip',
  gz: 'application/gzip',
  tif: 'image/tiff',
  tiff: 'image/tiff',
  mp3: 'audio/mpeg',
  mp4: 'video/mp4',
  ico: 'image/vnd.microsoft.icon',
  woff: 'font/woff',
  woff2: 'font/woff2',
};

const DEFAULT_CONTENT_TYPE = 'application/octet-stream';

/** The Content-Type of a file named `name` (its last segment) holding `data`. */
export function contentTypeOf(name: string, data: Uint8Array): string {
  for (const m of MAGIC) {
    if (data.length >= m.bytes.length && m.bytes.every((x, i) => data[i] === x)) return m.type;
  }
  const c = container(data);
  if (c) return c;
  const dot = name.lastIndexOf('.');
  const ext = dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
  return BY_EXTENSION[ext] ?? DEFAULT_CONTENT_TYPE;
}
