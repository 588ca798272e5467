/**
 * `check --format json`: one JSON document for scripts, in a shape that only grows (README,
 * "Command line"):
 *
 *   { version: 1, engine, files: [{ file, error?, diagnostics: [{ severity, code, message,
 *     line, column, length?, in? }] }], summary: { files, errors, warnings, unreadable } }
 *
 * `line` and `column` are 1-based, the column and `length` in UTF-16 code units (as JavaScript
 * counts a string); line 0 means the problem has no place in the text (the template is too
 * large). `in` is the path of an included template the problem is in, when it is not the file
 * checked. `error` says why a file could not be read.
 */
import { ENGINE_VERSION } from '../../compiler/index.js';
import { diagnosticPath, summarize, type CheckedFile } from './checked.js';

/** Bumped only when a field changes meaning or goes away. */
const JSON_REPORT_VERSION = 1;

export function jsonReport(files: readonly CheckedFile[]): string {
  const doc = {
    version: JSON_REPORT_VERSION,
    engine: ENGINE_VERSION,
    files: files.map((f) => ({
      file: f.file,
      ...(f.failure === undefined ? {} : { error: f.failure }),
      diagnostics: f.diagnostics.map((d) => {
        const path = diagnosticPath(f, d);
        return {
          severity: d.severity,
          code: d.code,
          message: d.message,
          line: d.line,
          column: d.column,
          ...(d.length === undefined ? {} : { length: d.length }),
          ...(path === f.file ? {} : { in: path }),
        };
      }),
    })),
    summary: summarize(files),
  };
  return JSON.stringify(doc, null, 2) + '\n';
}
