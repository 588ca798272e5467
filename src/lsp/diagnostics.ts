/**
 * The compiler's diagnostics as LSP diagnostics. The compiler counts lines at `\n` only, and
 * columns from 1 in UTF-16 code units; LSP counts both from 0 and also breaks lines at a lone
 * `\r`. So a place goes through its offset in the text, never from line to line.
 */
import { DiagnosticSeverity, type Diagnostic as LspDiagnostic } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Diagnostic } from '../errors.js';

export function toLspDiagnostics(doc: TextDocument, name: string, diagnostics: readonly Diagnostic[]): LspDiagnostic[] {
  const text = doc.getText();
  const lineStarts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lineStarts.push(i + 1);
  return diagnostics.map((d) => {
    // Line 0: no place in the template (a limit); a diagnostic of an included template: the
    // include is what this document can show, at its start, with the other template's place.
    const here = d.name === name && d.line > 0 && d.line <= lineStarts.length;
    const start = here ? Math.min(lineStarts[d.line - 1]! + d.column - 1, text.length) : 0;
    const end = here ? Math.min(start + Math.max(1, d.length ?? 1), text.length) : 0;
    return {
      range: { start: doc.positionAt(start), end: doc.positionAt(end) },
      severity: d.severity === 'error' ? DiagnosticSeverity.Error : DiagnosticSeverity.Warning,
      code: d.code,
      source: 'smartcage',
      message: d.name === name || d.line === 0 ? d.message : `${d.name}:${d.line}:${d.column}: ${d.message}`,
    };
  });
}
