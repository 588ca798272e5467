/**
 * Where a diagnostic of a render is, as a path the user can open from where they ran the
 * command: the engine names an included template by its include name (`parts/head.tpl`) and a
 * custom function `function:KEY`, which are relative to the templates or functions folder, not
 * to the current folder.
 */
import path from 'node:path';
import { formatDiagnostic, type Diagnostic, type TemplateError } from '../errors.js';

export interface Folders {
  /** The name the main template was rendered under (shown as it is). */
  main: string;
  /** Where {include file=...} reads from. */
  templates: string;
  /** Where {function} reads custom functions from (KEY.tpl), if anywhere. */
  functions?: string;
}

function shownName(name: string, f: Folders): string {
  if (name === f.main) return name;
  const fn = /^function:(.+)$/.exec(name);
  const file = fn
    ? f.functions === undefined
      ? null
      : path.join(f.functions, `${fn[1]}.tpl`)
    : path.join(f.templates, name);
  return file === null ? name : path.relative(process.cwd(), file) || name;
}

/** The diagnostic in the house format, at the path shownName gives. */
export function formatShown(d: Diagnostic, f: Folders): string {
  return formatDiagnostic({ ...d, name: shownName(d.name, f) });
}

/** A TemplateError in the house format, at the path shownName gives. */
export function formatErrorShown(e: TemplateError, f: Folders): string {
  return formatShown(
    {
      severity: 'error',
      code: e.code,
      message: e.message,
      name: e.template,
      line: e.line,
      column: e.column,
      frame: e.frame,
    },
    f,
  );
}
