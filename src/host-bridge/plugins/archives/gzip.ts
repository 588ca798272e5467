/**
 * {gzip file_url=... dest=...}: one `/files/g/` file or https URL compressed with node:zlib into
 * `/files/g/`, its path in gzip_dest. dest (docs/decisions.md D78): a file path; a path ending in
 * `/` is a folder, the source's name + `.gz` inside it; omitted, the source path + `.gz` for a
 * `/files/g/` source and a fresh name under /files/g/archives for a URL. What is there is replaced
 * (the spec gives gzip no overwrite). The source is at most MAX_ARCHIVE_INPUT_BYTES.
 */
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { HostPlugin } from '../../plugin-contract.js';
import { joinSegment, parseVirtualPath, type VirtualPath } from '../../files/virtual-path.js';
import { checkBucket, tenantFiles } from '../files/common.js';
import { callbackOf, queueCallback } from '../callback-batch.js';
import { readSource, sourceRef, type SourceRef } from './source.js';
import { destAttr, freshDest } from './dest.js';
import { MAX_ARCHIVE_INPUT_BYTES } from './limits.js';

const gzipAsync = promisify(zlib.gzip);

/** The source's own name: the last segment of its path, or of its URL's path. */
function sourceName(src: SourceRef): string {
  if ('path' in src) return src.path.segments.at(-1) ?? 'file';
  return new URL(src.url).pathname.split('/').at(-1) || 'download';
}

function destOf(src: SourceRef, given: VirtualPath | null): VirtualPath {
  if (given?.trailingSlash) return joinSegment(given, `${sourceName(src)}.gz`, { plugin: 'gzip', attr: 'dest' });
  if (given) return given;
  return 'path' in src ? parseVirtualPath(`${src.path.text}.gz`, { plugin: 'gzip', attr: 'file_url' }) : freshDest('.gz');
}

export const gzip: HostPlugin = {
  name: 'gzip',
  async run(attrs, call) {
    const callback = callbackOf('gzip', attrs, call);
    checkBucket('gzip', attrs);
    const src = sourceRef('gzip', 'file_url', attrs.file_url, call);
    const dest = destOf(src, destAttr('gzip', attrs));
    const files = tenantFiles(call, 'gzip');
    const bytes = await readSource('gzip', src, MAX_ARCHIVE_INPUT_BYTES, call);
    await files.writeAtomic(dest, await gzipAsync(bytes));
    if (callback) await queueCallback('gzip', callback, call, `wrote ${dest.text}`);
    return { assign: [['gzip_dest', dest.text]] };
  },
};
