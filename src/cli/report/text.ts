/** `check --format text` (the default): the house format, `file:line:column: error CODE: message` and a frame. */
import { formatDiagnostic } from '../../errors.js';
import type { CheckedFile } from './checked.js';
import { diagnosticFor } from '../colour.js';

/** One file's diagnostics, written as soon as it is checked. */
export function textReport(f: CheckedFile): string {
  return f.diagnostics.map((d) => diagnosticFor(process.stdout, formatDiagnostic(d)) + '\n').join('');
}
