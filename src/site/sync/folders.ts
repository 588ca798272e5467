/**
 * The files a site sync copies, staged first and swapped in last: the source's folders are
 * copied into a staging folder inside the target (data/, so on the same file system), and only
 * when every copy is done are the target's folders renamed away and the staged ones renamed into
 * place, each rename undone if a later one fails. The target's files are never half-written.
 *
 * App design: templates/, functions/, mail/ and batches/, and site.json `endpoints`, `apis` and
 * `batches` (the rest of the target's site.json stays). Full adds the storage folders files/user
 * and files/ltd (not files/temp). Links are refused, not followed.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';
import { BridgeError, type SyncType } from '../../index.js';

/** Files and bytes one sync copies at most. */
export const MAX_SYNC_FILES = 10_000;
export const MAX_SYNC_FILE_BYTES = 512 * 1024 * 1024;

const DESIGN_FOLDERS = ['templates', 'functions', 'mail', 'batches'];
const CONTENT_FOLDERS = ['files/user', 'files/ltd'];
/** The site.json keys that are app design. */
const DESIGN_SETTINGS = ['endpoints', 'apis', 'batches'];

export interface Staged {
  /** Moves the staged files into the target; undoes what it did when it fails. */
  swap(): Promise<void>;
  /** Puts the target's files back after a swap (when what followed it failed). */
  undo(): Promise<void>;
  /** Removes the staging folder (the target's replaced files with it). */
  remove(): Promise<void>;
}

interface Budget {
  files: number;
  bytes: number;
}

async function copyTree(from: string, to: string, budget: Budget): Promise<void> {
  await fs.mkdir(to, { recursive: true });
  if (!existsSync(from)) return;
  for (const entry of await fs.readdir(from, { withFileTypes: true })) {
    const src = path.join(from, entry.name);
    const dst = path.join(to, entry.name);
    if (entry.isSymbolicLink())
      throw new BridgeError(
        'E_PERMISSION_DENIED',
        `{site_sync} the source site has a link (${entry.name}); links are not copied`,
      );
    if (entry.isDirectory()) {
      await copyTree(src, dst, budget);
      continue;
    }
    if (!entry.isFile()) continue;
    const { size } = await fs.lstat(src);
    budget.files += 1;
    budget.bytes += size;
    if (budget.files > MAX_SYNC_FILES || budget.bytes > MAX_SYNC_FILE_BYTES) {
      throw new BridgeError(
        'E_SIZE_LIMIT',
        `{site_sync} a sync copies at most ${MAX_SYNC_FILES} files and ${MAX_SYNC_FILE_BYTES >> 20} MiB`,
      );
    }
    await fs.copyFile(src, dst);
  }
}

/** The target's site.json with the source's design settings. */
async function mergedSettings(sourceDir: string, targetDir: string): Promise<string> {
  const source = JSON.parse(await fs.readFile(path.join(sourceDir, 'site.json'), 'utf8')) as Record<string, unknown>;
  const target = JSON.parse(await fs.readFile(path.join(targetDir, 'site.json'), 'utf8')) as Record<string, unknown>;
  for (const key of DESIGN_SETTINGS) {
    if (key in source) target[key] = source[key];
    else delete target[key];
  }
  return `${JSON.stringify(target, null, 2)}\n`;
}

/** Copies what the sync replaces into a staging folder of the target. */
export async function stage(sourceDir: string, targetDir: string, type: SyncType): Promise<Staged> {
  const root = path.join(targetDir, 'data', `sync-${randomBytes(6).toString('hex')}`);
  const fresh = path.join(root, 'new');
  const old = path.join(root, 'old');
  const entries = [...DESIGN_FOLDERS, ...(type === 2 ? CONTENT_FOLDERS : []), 'site.json'];
  try {
    const budget: Budget = { files: 0, bytes: 0 };
    for (const folder of entries.slice(0, -1))
      await copyTree(path.join(sourceDir, folder), path.join(fresh, folder), budget);
    await fs.writeFile(path.join(fresh, 'site.json'), await mergedSettings(sourceDir, targetDir));
  } catch (e) {
    await fs.rm(root, { recursive: true, force: true });
    throw e;
  }
  const done: string[] = [];
  const undo = async () => {
    for (const entry of done.splice(0).reverse()) {
      const live = path.join(targetDir, entry);
      await fs.rm(live, { recursive: true, force: true });
      if (existsSync(path.join(old, entry))) await fs.rename(path.join(old, entry), live);
    }
  };
  return {
    async swap() {
      try {
        for (const entry of entries) {
          const live = path.join(targetDir, entry);
          await fs.mkdir(path.dirname(path.join(old, entry)), { recursive: true });
          if (existsSync(live)) await fs.rename(live, path.join(old, entry));
          done.push(entry);
          await fs.mkdir(path.dirname(live), { recursive: true });
          await fs.rename(path.join(fresh, entry), live);
        }
      } catch (e) {
        await undo();
        throw e;
      }
    },
    undo,
    remove: () => fs.rm(root, { recursive: true, force: true }),
  };
}
