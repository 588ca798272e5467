/**
 * The templates under a folder, for `smartcage check DIR`: every file ending in `.tpl`, in a
 * stable order (sorted by path, byte order of the names), so two runs report alike.
 */
import { lstatSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { join, relative, sep, isAbsolute } from 'node:path';
import { UsageError } from '../args.js';
import { compareCodePoints } from '../../text/code-point-order.js';
import { nodeErrorCode } from '../caught.js';

/** More templates than this in one check is almost surely the wrong folder (a home, a disk). */
export const MAX_TEMPLATES = 10_000;
/** Folder entries looked at, templates or not: the walk of a huge tree ends with a clear error, not a long silence. */
const MAX_ENTRIES = 200_000;

/** Folders never walked: hidden ones (.git, .cache) and installed packages. */
function skipFolder(name: string): boolean {
  return name.startsWith('.') || name === 'node_modules';
}

export interface FoundTemplates {
  files: string[];
  /** Links that point out of the folder: named on stderr, not checked. */
  linksOut: string[];
  /** Folders that could not be listed, each with why: reported as unreadable files are. */
  unreadable: { path: string; message: string }[];
}

/**
 * Walks `dir` depth-first. A symbolic link is never followed into a folder (a link to an ancestor
 * would loop), and a linked file counts only when its target lies inside `dir`: checking must not
 * read what the folder only points at. `budget` is how many templates may still be added.
 */
export function findTemplates(dir: string, budget = MAX_TEMPLATES): FoundTemplates {
  const root = realpathSync(dir);
  const found: FoundTemplates = { files: [], linksOut: [], unreadable: [] };
  let entries = 0;
  const walk = (folder: string): void => {
    let names: string[];
    try {
      names = readdirSync(folder).sort(compareCodePoints);
    } catch (e) {
      found.unreadable.push({
        path: folder,
        message: `cannot read the folder ${folder}: ${nodeErrorCode(e) ?? 'error'}`,
      });
      return;
    }
    entries += names.length;
    if (entries > MAX_ENTRIES)
      throw new UsageError(`${dir} holds more than ${MAX_ENTRIES} files and folders; check a smaller folder`);
    for (const name of names) {
      const path = join(folder, name);
      const link = lstatSync(path);
      if (link.isDirectory()) {
        if (!skipFolder(name)) walk(path);
        continue;
      }
      if (!name.endsWith('.tpl')) continue;
      if (link.isSymbolicLink()) {
        if (!inside(root, path)) {
          found.linksOut.push(path);
          continue;
        }
        if (!statSync(path).isFile()) continue;
      } else if (!link.isFile()) continue;
      if (found.files.length >= budget) {
        throw new UsageError(
          `more than ${MAX_TEMPLATES} templates to check (with those in ${dir}); check a smaller folder`,
        );
      }
      found.files.push(path);
    }
  };
  walk(dir);
  return found;
}

/** Whether a link's target (followed to the end) is inside `root`; a dangling link is not. */
function inside(root: string, path: string): boolean {
  let target: string;
  try {
    target = realpathSync(path);
  } catch {
    return false;
  }
  const rel = relative(root, target);
  return rel !== '' && !isAbsolute(rel) && rel !== '..' && !rel.startsWith(`..${sep}`);
}
