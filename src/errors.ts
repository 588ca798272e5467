/**
 * One error family for everything a template can get wrong, at compile time or at render
 * time: a stable `code`, the template `name`, `line` and `column` (1-based), and a code
 * `frame` showing the place.
 */
import type { ErrorCode, WarningCode } from './protocol/error-codes.js';

export type { ErrorCode, WarningCode } from './protocol/error-codes.js';

export type Severity = 'error' | 'warning';

/** One problem of a compile; `severity` tells which kind of code it has. */
export interface DiagnosticOf<S extends Severity> {
  severity: S;
  /** Stable identifier: an ErrorCode (E_SYNTAX, E_UNCLOSED_TAG...) or, for a warning, a WarningCode. */
  code: S extends 'error' ? ErrorCode : WarningCode;
  message: string;
  /** Template name. */
  name: string;
  line: number;
  column: number;
  /** How far the place reaches from line:column, in UTF-16 code units (the span the frame underlines in full); absent when not known. */
  length?: number;
  /** A few lines of the template with a caret under the place. */
  frame: string;
}

export type Diagnostic = DiagnosticOf<'error'> | DiagnosticOf<'warning'>;

export class TemplateError extends Error {
  readonly code: ErrorCode;
  readonly template: string;
  readonly line: number;
  readonly column: number;
  readonly frame: string;
  /** Further diagnostics of the same compile, when there were several errors. */
  readonly diagnostics: readonly Diagnostic[];

  /** `cause`: for an internal error, what was thrown (for the embedder's log, never in the message). */
  constructor(
    d: Omit<DiagnosticOf<'error'>, 'severity'>,
    diagnostics: readonly Diagnostic[] = [],
    options?: { cause?: unknown },
  ) {
    super(d.message, options);
    this.name = 'TemplateError';
    this.code = d.code;
    this.template = d.name;
    this.line = d.line;
    this.column = d.column;
    this.frame = d.frame;
    this.diagnostics = diagnostics;
  }

  /** The house error format: `name:line:column: error CODE: message` then the frame. */
  format(): string {
    return formatDiagnostic({
      severity: 'error',
      code: this.code,
      message: this.message,
      name: this.template,
      line: this.line,
      column: this.column,
      frame: this.frame,
    });
  }
}

export function formatDiagnostic(d: Diagnostic): string {
  // Line 0: the error has no place in the template (a limit enforced from outside the isolate).
  const where = d.line > 0 ? `${d.name}:${d.line}:${d.column}` : d.name;
  const head = `${where}: ${d.severity} ${d.code}: ${d.message}`;
  return d.frame ? `${head}\n${d.frame}` : head;
}

/** Offsets to line/column and code frames for one source text. */
export class SourceText {
  private readonly lineStarts: number[] = [0];

  constructor(
    readonly name: string,
    readonly text: string,
  ) {
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) this.lineStarts.push(i + 1);
  }

  position(offset: number): { line: number; column: number } {
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lineStarts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - this.lineStarts[lo] + 1 };
  }

  /**
   * Two lines of context before, the line itself, and a caret under the column. A long line (a
   * minified template) shows a window of at most FRAME_WIDTH characters around the column.
   */
  frame(line: number, column: number, width = 1): string {
    const first = Math.max(1, line - 2);
    const pad = String(line).length;
    const start = column > FRAME_WIDTH - 40 ? column - 1 - (FRAME_WIDTH >> 1) : 0;
    const out: string[] = [];
    for (let n = first; n <= Math.min(line, this.lineStarts.length); n++) {
      // Only the lines shown are sliced: splitting the whole text per frame made a template
      // with many errors quadratic (16,000 errors in 192 KB: 14 s).
      const from = this.lineStarts[n - 1];
      let end = n < this.lineStarts.length ? this.lineStarts[n] - 1 : this.text.length;
      if (end > from && this.text.charCodeAt(end - 1) === 13) end--;
      out.push(`${n === line ? '>' : ' '} ${String(n).padStart(pad)} | ${window(this.text, from, end, start)}`);
    }
    const caretCol = column - start + (start > 0 ? 1 : 0);
    out.push(
      `  ${' '.repeat(pad)} | ${' '.repeat(Math.max(0, caretCol - 1))}${'^'.repeat(Math.max(1, Math.min(width, 40)))}`,
    );
    return out.join('\n');
  }

  diagnostic<S extends Severity>(
    severity: S,
    code: DiagnosticOf<S>['code'],
    message: string,
    start: number,
    end = start + 1,
  ): DiagnosticOf<S> {
    const { line, column } = this.position(start);
    // Messages quote the template (tags, names): a huge name stays out, and a line break in the
    // quote is written as an escape, so a diagnostic is one line of a report, as tools read it.
    const cut = message.length > MAX_MESSAGE_CHARS ? `${message.slice(0, MAX_MESSAGE_CHARS)}…` : message;
    const text = cut.replace(/[\r\n\t\u2028\u2029]/g, (c) => LINE_BREAK_ESCAPES[c]!);
    return {
      severity,
      code,
      message: text,
      name: this.name,
      line,
      column,
      length: end - start,
      frame: this.frame(line, column, end - start),
    };
  }
}

const LINE_BREAK_ESCAPES: Readonly<Record<string, string>> = {
  '\r': '\\r',
  '\n': '\\n',
  '\t': '\\t',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};
const FRAME_WIDTH = 160;
const MAX_MESSAGE_CHARS = 500;

/** The part of the line text[lineStart, lineEnd) the frame shows, from `start`, with an ellipsis where it was cut. */
function window(text: string, lineStart: number, lineEnd: number, start: number): string {
  const a = Math.min(lineStart + start, lineEnd);
  const b = Math.min(a + FRAME_WIDTH, lineEnd);
  return (start > 0 ? '…' : '') + text.slice(a, b) + (b < lineEnd ? '…' : '');
}
