/**
 * {zip entries=[[url, name], ...] dest=...}: a zip archive of `/files/g/` files and https URLs,
 * written to `/files/g/` (replacing what is there: the spec gives zip no overwrite), its path in
 * zip_dest. Built with yazl: names stored as UTF-8 (flagged so), deflated, dated at the render's
 * clock. Every entry is checked (its name by names.ts, its source by the root rule or as a URL)
 * before the first source is read; sources together are at most MAX_ARCHIVE_INPUT_BYTES.
 */
import { addAbortSignal, type Readable } from 'node:stream';
import yazl from 'yazl';
import { implement, type BridgeCall } from '../plugin-contract.js';
import { BridgeError } from '../../host-api/errors.js';
import { checkRender } from '../../host-api/render-signal.js';
import { PhpArray, type Value } from '../../value/value.js';
import { checkBucket, tenantFiles } from '../files/common.js';
import { callbackOf, queueCallback } from '../callback-batch.js';
import { readSource, sourceRef, type SourceRef } from './source.js';
import { destAttr, freshDest } from './dest.js';
import { zipEntryName } from './names.js';
import { MAX_ARCHIVE_ENTRIES, MAX_ARCHIVE_INPUT_BYTES } from './limits.js';
import declaration from '../../plugins/host-archives/zip.js';

/** Bytes yazl may add per entry (headers, descriptor, a deflate that does not shrink) beyond its source. */
const OVERHEAD_PER_ENTRY = 1024;

function entriesOf(v: Value | undefined, call: BridgeCall): { name: string; ref: SourceRef }[] {
  if (!(v instanceof PhpArray) || v.size === 0)
    throw new BridgeError('E_BAD_ATTRIBUTE', '{zip} entries= must be a non-empty array of arrays with url and name');
  if (v.size > MAX_ARCHIVE_ENTRIES)
    throw new BridgeError('E_SIZE_LIMIT', `{zip} more than ${MAX_ARCHIVE_ENTRIES} entries`);
  const seen = new Set<string>();
  return v.values().map((e, i) => {
    if (!(e instanceof PhpArray))
      throw new BridgeError('E_BAD_ATTRIBUTE', `{zip} entries[${i}] must be an array with url and name`);
    const name = zipEntryName(e.get('name'), i);
    if (seen.has(name)) throw new BridgeError('E_BAD_ATTRIBUTE', `{zip} two entries are named ${JSON.stringify(name)}`);
    seen.add(name);
    return { name, ref: sourceRef('zip', 'entries.url', e.get('url'), call) };
  });
}

async function collect(stream: NodeJS.ReadableStream, cap: number, signal: AbortSignal): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let n = 0;
  // The render ended: yazl's deflate stops with its stream.
  for await (const c of addAbortSignal(signal, stream as Readable) as AsyncIterable<Buffer>) {
    n += c.length;
    if (n > cap) throw new BridgeError('E_SIZE_LIMIT', `{zip} the archive grew past ${cap} bytes`);
    chunks.push(c);
  }
  return Buffer.concat(chunks, n);
}

export const zip = implement(declaration, async (attrs, call) => {
  const callback = callbackOf('zip', attrs, call);
  checkBucket('zip', attrs);
  const list = entriesOf(attrs.entries, call);
  const dest = destAttr('zip', attrs) ?? freshDest('.zip');
  const files = tenantFiles(call, 'zip');

  const archive = new yazl.ZipFile();
  const output = collect(
    archive.outputStream,
    MAX_ARCHIVE_INPUT_BYTES + OVERHEAD_PER_ENTRY * (list.length + 1),
    call.signal,
  );
  output.catch(() => {});
  const mtime = new Date(call.render.now * 1000);
  let used = 0;
  for (const e of list) {
    checkRender(call.signal, '{zip}');
    if (call.timeLeft() <= 0)
      throw new BridgeError('E_WALL_TIMEOUT', "{zip} the render's time ran out while reading the sources");
    const bytes = await readSource('zip', e.ref, MAX_ARCHIVE_INPUT_BYTES - used, call);
    used += bytes.length;
    archive.addBuffer(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), e.name, { mtime, compress: true });
  }
  archive.end();
  const data = await output.catch((e: unknown) => {
    checkRender(call.signal, '{zip}');
    throw e;
  });
  checkRender(call.signal, '{zip}');
  await files.writeAtomic(dest, data);
  if (callback) await queueCallback('zip', callback, call, `wrote ${dest.text}`);
  return { assign: [['zip_dest', dest.text]] };
});
