/** What `smartcage check` found, the one input of its three output formats (text, json, sarif). */
import { join } from 'node:path';
import type { Diagnostic } from '../../errors.js';

export interface CheckedFile {
  /** The path as given on the command line, or as found under a folder given there. */
  file: string;
  /** The folder {include file=...} names resolve in: --templates, the folder checked, or the file's own. */
  root: string;
  diagnostics: Diagnostic[];
  /** The text of each template the compile read, by the name its diagnostics carry (SARIF regions are counted in it). */
  sources: Map<string, string>;
  /** Why the file could not be checked (unreadable, not UTF-8...); it then has no diagnostics. */
  failure?: string;
}

export interface CheckSummary {
  /** Templates checked, unreadable ones included. */
  files: number;
  /** Error diagnostics, over all files. */
  errors: number;
  /** Warning diagnostics (none with --quiet). */
  warnings: number;
  /** Files that could not be read (exit status 3). */
  unreadable: number;
}

export function summarize(files: readonly CheckedFile[]): CheckSummary {
  const all = files.flatMap((f) => f.diagnostics);
  return {
    files: files.length,
    errors: all.filter((d) => d.severity === 'error').length,
    warnings: all.filter((d) => d.severity === 'warning').length,
    unreadable: files.filter((f) => f.failure !== undefined).length,
  };
}

/**
 * The path of the template a diagnostic is in: the checked file itself, or a template it
 * includes, whose diagnostics carry the include's name (relative to `root`).
 */
export function diagnosticPath(f: CheckedFile, d: Diagnostic): string {
  return d.name === f.file ? f.file : join(f.root, d.name);
}
