/** Reading templates and their includes from disk for the CLI. */
import { readFileSync, existsSync } from 'node:fs';
import { dirname, resolve, relative, sep } from 'node:path';
import { EXIT } from '../exit-codes.js';

export class CliFileError extends Error {
  readonly exit = EXIT.IO;
}

export function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    throw new CliFileError(`cannot read ${path}: ${(e as NodeJS.ErrnoException).code ?? 'error'}`);
  }
}

/** {include file=...} resolves inside one folder (the template's own, or --templates DIR); never outside it. */
export function includeResolver(root: string): (name: string) => string | undefined {
  const base = resolve(root);
  return (name) => {
    const path = resolve(base, name);
    const rel = relative(base, path);
    if (rel.startsWith('..') || rel.includes(`..${sep}`) || name.includes('\0')) return undefined;
    return existsSync(path) ? readFileSync(path, 'utf8') : undefined;
  };
}

export function templateRoot(file: string, flag: string | true | undefined): string {
  return typeof flag === 'string' ? flag : dirname(file);
}
