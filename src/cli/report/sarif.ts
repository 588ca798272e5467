/**
 * `check --format sarif`: a SARIF 2.1.0 log, what GitHub code scanning and editors' SARIF viewers
 * read. One run; a rule per code that occurs; a result per diagnostic (a problem in an included
 * template is reported once, where it is, however many checked files include it). Columns stay
 * as the compiler counts them, 1-based in UTF-16 code units, which is SARIF's default column
 * kind, so they need no conversion.
 */
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ENGINE_VERSION } from '../../compiler/index.js';
import type { Diagnostic } from '../../errors.js';
import { diagnosticPath, type CheckedFile } from './checked.js';
import { ERROR_CODE_MEANINGS, WARNING_CODE_MEANINGS } from '../../protocol/error-codes.js';

const SRCROOT = '%SRCROOT%';

interface ArtifactLocation {
  uri: string;
  uriBaseId?: string;
}

interface Region {
  startLine: number;
  startColumn: number;
  endLine?: number;
  endColumn?: number;
}

interface Location {
  physicalLocation: { artifactLocation: ArtifactLocation; region?: Region };
}

interface Result {
  ruleId: string;
  ruleIndex: number;
  level: 'error' | 'warning';
  message: { text: string };
  locations: Location[];
}

const MEANINGS: ReadonlyMap<string, string> = new Map(
  Object.entries({ ...ERROR_CODE_MEANINGS, ...WARNING_CODE_MEANINGS }),
);

/** `cwd`: the folder URIs are relative to (the current one); the log names it as %SRCROOT%. */
export function sarifReport(files: readonly CheckedFile[], cwd: string): string {
  const codes = [...new Set(files.flatMap((f) => f.diagnostics.map((d) => d.code)))].sort();
  const rules = codes.map((code) => ({
    id: code,
    shortDescription: { text: MEANINGS.get(code) ?? code },
    defaultConfiguration: { level: code.startsWith('W_') ? 'warning' : 'error' },
  }));
  const results: Result[] = [];
  const seen = new Set<string>();
  for (const f of files) {
    const starts = new Map<string, number[]>();
    for (const d of f.diagnostics) {
      const location = physicalLocation(diagnosticPath(f, d), cwd, region(d, f.sources.get(d.name), starts));
      const key = JSON.stringify([d.code, d.message, location]);
      if (seen.has(key)) continue;
      seen.add(key);
      results.push({
        ruleId: d.code,
        ruleIndex: codes.indexOf(d.code),
        level: d.severity,
        message: { text: d.message },
        locations: [location],
      });
    }
  }
  const failed = files.filter((f) => f.failure !== undefined);
  const log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'smartcage', version: ENGINE_VERSION, rules } },
        invocations: [
          {
            executionSuccessful: failed.length === 0,
            ...(failed.length === 0
              ? {}
              : {
                  toolExecutionNotifications: failed.map((f) => ({
                    level: 'error',
                    message: { text: f.failure! },
                    locations: [physicalLocation(f.file, cwd)],
                  })),
                }),
          },
        ],
        originalUriBaseIds: { [SRCROOT]: { uri: folderUri(cwd) } },
        columnKind: 'utf16CodeUnits',
        results,
      },
    ],
  };
  return JSON.stringify(log, null, 2) + '\n';
}

function physicalLocation(path: string, cwd: string, region?: Region): Location {
  return { physicalLocation: { artifactLocation: artifactLocation(path, cwd), ...(region ? { region } : {}) } };
}

/** Relative to %SRCROOT% with forward slashes when under it, else an absolute file: URI. */
function artifactLocation(path: string, cwd: string): ArtifactLocation {
  const abs = resolve(cwd, path);
  const rel = relative(cwd, abs);
  if (rel === '' || isAbsolute(rel) || rel === '..' || rel.startsWith(`..${sep}`))
    return { uri: pathToFileURL(abs).href };
  return { uri: rel.split(sep).map(encodeURIComponent).join('/'), uriBaseId: SRCROOT };
}

/** A base URI must end with a slash, or the last folder's name would be replaced when resolving against it. */
function folderUri(dir: string): string {
  const href = pathToFileURL(dir).href;
  return href.endsWith('/') ? href : `${href}/`;
}

/**
 * Where the diagnostic is. Its `length` may reach past the end of its line (a condition left
 * open), so the end is found in the text: SARIF's end column is the one after the last character.
 * None for line 0, a problem with no place in the text.
 */
function region(d: Diagnostic, text: string | undefined, starts: Map<string, number[]>): Region | undefined {
  if (d.line < 1) return undefined;
  const r: Region = { startLine: d.line, startColumn: d.column };
  if (d.length === undefined || text === undefined) return r;
  let lines = starts.get(d.name);
  if (!lines) starts.set(d.name, (lines = lineStarts(text)));
  const start = (lines[d.line - 1] ?? text.length) + d.column - 1;
  // A span that ends with its line's break ends at the end of that line, not at column 1 of the next.
  const span = text.slice(start, start + d.length).replace(/\r?\n$/, '');
  const lastBreak = span.lastIndexOf('\n');
  if (lastBreak < 0) return { ...r, endColumn: d.column + span.length };
  return { ...r, endLine: d.line + span.split('\n').length - 1, endColumn: span.length - lastBreak };
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}
