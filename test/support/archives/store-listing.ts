/**
 * Everything below a real folder, links and dot files included, never following a link: what a
 * test compares before and after an archive plugin to prove that nothing was written outside
 * the destination (or at all).
 */
import { lstatSync, readdirSync, readlinkSync } from 'node:fs';
import path from 'node:path';

/** Relative path -> what it is (`file <size>`, `dir`, `link -> <target>`, `other`). */
export function listTree(root: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const full = path.join(dir, name);
      const rel = path.relative(root, full);
      const st = lstatSync(full);
      if (st.isSymbolicLink()) out.set(rel, `link -> ${readlinkSync(full)}`);
      else if (st.isDirectory()) {
        out.set(rel, 'dir');
        walk(full);
      } else out.set(rel, st.isFile() ? `file ${st.size}` : 'other');
    }
  };
  walk(root);
  return out;
}

/** Entries of `after` that are new or changed since `before`, and those gone. */
export function treeChanges(
  before: Map<string, string>,
  after: Map<string, string>,
): { added: string[]; removed: string[] } {
  return {
    added: [...after].filter(([k, v]) => before.get(k) !== v).map(([k]) => k),
    removed: [...before.keys()].filter((k) => !after.has(k)),
  };
}
