/**
 * `smartcage site put DIR VIRTUAL_PATH LOCAL_FILE` and `smartcage site get DIR VIRTUAL_PATH`:
 * files into and out of a site's storage through the site's own FileStore (HostAdapters.files,
 * TenantFiles over DIR/files), so they obey what the file plugins obey: virtual paths under a
 * known root, no links followed, the quota and the read cap.
 */
import { readFileSync, statSync } from 'node:fs';
import { UsageError, parseArgs } from '../args.js';
import { EXIT } from '../exit-codes.js';
import { openSiteFolder, SiteOpenError } from '../site-folder.js';
import { parseVirtualPath, type VirtualPath } from '../../host-adapters/files/virtual-path.js';
import { FileError } from '../../host-adapters/files/errors.js';
import type { FileStore } from '../../host-adapters/files/file-store.js';
import type { Subcommand } from './site.js';
import { nodeErrorCode } from '../caught.js';

/** A local file larger than this is refused: `site get` could not read it back (the site's read cap). */
const MAX_PUT_BYTES = 64 << 20;

function virtualFile(text: string): VirtualPath {
  let p: VirtualPath;
  try {
    p = parseVirtualPath(text);
  } catch (e) {
    if (e instanceof FileError)
      throw new UsageError(`${e.message} (a file path of the site's storage, such as /files/user/a.txt)`);
    throw e;
  }
  if (p.segments.length === 0 || p.trailingSlash)
    throw new UsageError(`${JSON.stringify(text)} names a folder; name a file under it (${p.root}/NAME)`);
  return p;
}

class LocalFileError extends Error {}

/** Runs `op` on the site's store; a site that does not open or a refused file operation is one line, exit 3. */
async function withStore(command: string, dir: string, op: (store: FileStore) => Promise<void>): Promise<number> {
  try {
    const site = await openSiteFolder(dir);
    try {
      await op(site.host.files!);
    } finally {
      await site.close();
    }
  } catch (e) {
    if (e instanceof SiteOpenError || e instanceof FileError || e instanceof LocalFileError) {
      process.stderr.write(`smartcage site ${command}: ${e.message}\n`);
      return EXIT.IO;
    }
    throw e;
  }
  return EXIT.OK;
}

function readLocal(file: string): Uint8Array {
  let size: number;
  try {
    const st = statSync(file);
    if (st.isDirectory()) throw new LocalFileError(`${file} is a folder, not a file`);
    size = st.size;
  } catch (e) {
    if (e instanceof LocalFileError) throw e;
    throw new LocalFileError(`cannot read ${file}: ${nodeErrorCode(e) ?? 'error'}`);
  }
  if (size > MAX_PUT_BYTES)
    throw new LocalFileError(`${file} is larger than ${MAX_PUT_BYTES >> 20} MiB, what the site reads back at most`);
  return readFileSync(file);
}

export const sitePut: Subcommand = {
  name: 'put',
  summary: "Copy a local file into the site's storage.",
  usage: [
    'smartcage site put DIR VIRTUAL_PATH LOCAL_FILE',
    '',
    '  DIR           the site folder',
    '  VIRTUAL_PATH  where the file goes, as templates name it: /files/user/a.txt, /files/ltd/...,',
    '                /files/temp/...; missing folders are made, an existing file is replaced',
    '  LOCAL_FILE    the file to copy (at most 64 MiB)',
    '',
    'Exit status: 0 copied; 2 wrong usage (a path that is not a file path of the storage); 3 the',
    'site cannot be opened, the local file cannot be read, or the storage refuses the file.',
  ].join('\n'),
  async run(argv) {
    const { positionals } = parseArgs(argv, {});
    const [dir, target, local, ...extra] = positionals;
    if (local === undefined || extra.length > 0)
      throw new UsageError('site put takes a site folder, a virtual path and a local file');
    const p = virtualFile(target);
    return withStore('put', dir, async (store) => {
      const data = readLocal(local);
      await store.writeAtomic(p, data);
      process.stderr.write(`${p.text}: ${data.length} bytes\n`);
    });
  },
};

export const siteGet: Subcommand = {
  name: 'get',
  summary: "Copy a file of the site's storage to standard output.",
  usage: [
    'smartcage site get DIR VIRTUAL_PATH',
    '',
    '  DIR           the site folder',
    '  VIRTUAL_PATH  the file, as templates name it: /files/user/a.txt',
    '',
    'Exit status: 0 copied; 2 wrong usage; 3 the site cannot be opened, or no such file.',
  ].join('\n'),
  async run(argv) {
    const { positionals } = parseArgs(argv, {});
    const [dir, source, ...extra] = positionals;
    if (source === undefined || extra.length > 0)
      throw new UsageError('site get takes a site folder and a virtual path');
    const p = virtualFile(source);
    return withStore('get', dir, async (store) => {
      const data = await store.read(p);
      await new Promise<void>((done, fail) => process.stdout.write(data, (e) => (e ? fail(e) : done())));
    });
  },
};
