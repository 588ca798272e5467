/** Reading templates, variables and includes from disk (or stdin) for the CLI. */
import { readFileSync, existsSync, statSync } from 'node:fs';
import { dirname, resolve, relative, sep } from 'node:path';
import { EXIT } from '../exit-codes.js';
import { nodeErrorCode } from '../caught.js';

export class CliFileError extends Error {
  readonly exit = EXIT.IO;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A text file as a string: a folder, a binary file (a NUL byte) or bytes that are not UTF-8 are a
 * short file error, not a template full of replacement characters. `-` reads standard input.
 */
export function readText(path: string): string {
  let bytes: Buffer;
  try {
    if (path !== '-' && statSync(path).isDirectory()) throw new CliFileError(`${path} is a folder, not a file`);
    bytes = readFileSync(path === '-' ? 0 : path);
  } catch (e) {
    if (e instanceof CliFileError) throw e;
    throw new CliFileError(`cannot read ${path}: ${readFailure(nodeErrorCode(e))}`);
  }
  if (bytes.includes(0)) throw new CliFileError(`${path} is a binary file, not a text file`);
  try {
    return utf8.decode(bytes);
  } catch {
    throw new CliFileError(`${path} is not UTF-8 text`);
  }
}

/** Why a file could not be read, and what to do, in words; the system's code last for searches and scripts. */
function readFailure(code: string | undefined): string {
  switch (code) {
    case 'ENOENT':
      return `there is no such file (check the name; paths are relative to ${process.cwd()}) (ENOENT)`;
    case 'EACCES':
    case 'EPERM':
      return `permission denied (check who may read it) (${code})`;
    case 'ENOTDIR':
      return `a part of the path is a file, not a folder (${code})`;
    default:
      return code ?? 'error';
  }
}

/** Reads a JSON file; invalid JSON is a file error naming the file, line and column. */
export function readJsonText(path: string): string {
  const text = readText(path);
  try {
    JSON.parse(text);
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    const at = /position (\d+)/.exec(message);
    const offset = at ? Number(at[1]) : text.length;
    const before = text.slice(0, offset).split('\n');
    const reason = message.replace(/\s*(in JSON )?at position \d+.*$/s, '').replace(/^JSON\.parse: /, '');
    throw new CliFileError(
      `${path}:${before.length}:${before[before.length - 1]!.length + 1}: not valid JSON: ${reason}`,
    );
  }
  return text;
}

/** {include file=...} resolves inside one folder (the template's own, or --templates DIR); never outside it. */
export function includeResolver(root: string): (name: string) => string | undefined {
  return (name) => {
    const path = includedFile(root, name);
    return path !== undefined && existsSync(path) ? readFileSync(path, 'utf8') : undefined;
  };
}

/** The file an {include file=NAME} of `root` names, or undefined when the name leaves the folder. */
export function includedFile(root: string, name: string): string | undefined {
  const base = resolve(root);
  const path = resolve(base, name);
  const rel = relative(base, path);
  if (rel.startsWith('..') || rel.includes(`..${sep}`) || name.includes('\0')) return undefined;
  return path;
}

/** The folder includes come from: --templates DIR, else the template's own folder (the current one for stdin). */
export function templateRoot(file: string, flag: string | undefined): string {
  return flag ?? (file === '-' ? '.' : dirname(file));
}
