/**
 * {unzip src=... dest=... overwrite=0|1 detect_order=...}: extracts a zip archive from `/files/g/`
 * or an https URL into a folder under `/files/g/`, and sets unzip_result.
 *
 * Order (docs/decisions.md D81): every attribute and the callback are checked; the archive is read
 * (at most MAX_ARCHIVE_INPUT_BYTES); its central directory is judged whole (names, kinds, declared
 * sizes, ratio: names.ts, zip-read.ts); with overwrite=0 an existing file at any target refuses
 * the call; every entry is inflated once to prove its size and CRC; only then are the files
 * written, one by one through the tenant's FileStore. A failure while writing removes the files
 * this call created (replaced ones keep their new content); nothing is written before it.
 *
 * unzip_result: `dest` (the folder), `files` (the paths written, in archive order), `skipped`
 * (entries not extracted: `name` and `reason`).
 */
import { implement } from '../plugin-contract.js';
import { BridgeError } from '../../host-api/errors.js';
import { fileExists } from '../../host-adapters/files/exists.js';
import { parseVirtualPath, type VirtualPath } from '../../host-adapters/files/virtual-path.js';
import { PhpArray, type Value } from '../../value/value.js';
import { checkBucket, tenantFiles } from '../files/common.js';
import { callbackOf, queueCallback } from '../callback-batch.js';
import { readSource, sourceRef } from './source.js';
import { destAttr, freshDest } from './dest.js';
import { detectOrder } from './names.js';
import { checkTime, entryBytes, inflate, planArchive } from './zip-read.js';
import { MAX_ARCHIVE_INPUT_BYTES } from './limits.js';
import declaration from '../../plugins/host-archives/unzip.js';

/** Without dest: the folder named after a `/files/g/` archive, next to it (`a/b.zip` -> `a/b`); a fresh folder for a URL. */
function defaultDest(src: { path: VirtualPath } | { url: string }): VirtualPath {
  if ('path' in src && src.path.segments.length > 0) {
    const base = src.path.text.replace(/\.zip$/i, '');
    if (base !== src.path.text) return parseVirtualPath(base);
  }
  return freshDest('');
}

export const unzip = implement(declaration, async (attrs, call) => {
  const callback = callbackOf('unzip', attrs, call);
  checkBucket('unzip', attrs);
  const src = sourceRef('unzip', 'src', attrs.src, call);
  const dest = destAttr('unzip', attrs) ?? defaultDest(src);
  const overwrite = attrs.overwrite === 1;
  const order = detectOrder(attrs.detect_order);
  const files = tenantFiles(call, 'unzip');

  const bytes = await readSource('unzip', src, MAX_ARCHIVE_INPUT_BYTES, call);
  const plan = await planArchive(bytes, order, dest, call);
  const created: VirtualPath[] = [];
  try {
    const fresh = new Set<string>();
    for (const f of plan.files) {
      checkTime(call, 'checking the targets');
      if (!(await fileExists(files, f.path))) fresh.add(f.path.text);
      else if (!overwrite)
        throw new BridgeError(
          'E_FILE_FAILED',
          `{unzip} ${JSON.stringify(f.path.text)} exists (overwrite=0 replaces nothing; nothing was extracted)`,
        );
    }
    for (const f of plan.files) await inflate(plan, f, call, () => {});
    for (const f of plan.files) {
      const data = await entryBytes(plan, f, call);
      // A render that ended meanwhile writes no more, and the catch removes what it created.
      checkTime(call, 'writing the files');
      await files.writeAtomic(f.path, data);
      if (fresh.has(f.path.text)) created.push(f.path);
    }
  } catch (e) {
    for (const p of created) await files.remove(p).catch(() => {});
    throw e;
  } finally {
    plan.zip.close();
  }

  const result = PhpArray.empty();
  result.set('dest', dest.text);
  result.set('files', PhpArray.fromList(plan.files.map((f) => f.path.text)));
  result.set(
    'skipped',
    PhpArray.fromList(
      plan.skipped.map((s) =>
        PhpArray.fromEntries([
          ['name', s.name],
          ['reason', s.reason],
        ] as [string, Value][]),
      ),
    ),
  );
  if (callback) await queueCallback('unzip', callback, call, `extracted ${plan.files.length} files into ${dest.text}`);
  return { assign: [['unzip_result', result]] };
});
