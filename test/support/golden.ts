/**
 * The golden corpus recorded with real Smarty 2.6.33 on PHP 8.2. CI reads the newest copy from
 * ../shared/conformance/ (it may hold more cases than the one committed here).
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface GoldenCase {
  id: string;
  area: 'core' | 'modifier' | 'error' | 'php';
  template?: string;
  /** Raw JSON text of `vars`, so that key order and floats survive (JSON.parse would lose them). */
  varsJson?: string;
  objects?: boolean;
  expect: unknown;
  expect_base64?: string;
  error: boolean;
  timezone?: string;
  fn?: string;
  argsJson?: string;
  args?: unknown[];
  tz?: string;
  type?: string;
  echo?: string | null;
  dialect_modifier?: boolean;
  note?: string;
}

const SHARED = fileURLToPath(new URL('../../../shared/conformance/smarty2-golden.jsonl', import.meta.url));
const LOCAL = fileURLToPath(new URL('../conformance/smarty2-golden.jsonl', import.meta.url));

export function goldenPath(): string {
  return existsSync(SHARED) ? SHARED : LOCAL;
}

export function loadGolden(): GoldenCase[] {
  return readFileSync(goldenPath(), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((line) => {
      const c = JSON.parse(line) as GoldenCase;
      c.varsJson = rawMember(line, 'vars') ?? '{}';
      c.argsJson = rawMember(line, 'args') ?? undefined;
      return c;
    });
}

/** The raw JSON text of a top-level member of a one-line JSON object. */
export function rawMember(line: string, name: string): string | null {
  const at = line.indexOf(`"${name}":`);
  if (at < 0) return null;
  let i = at + name.length + 3;
  while (line[i] === ' ') i++;
  const start = i;
  let depth = 0;
  let inString = false;
  for (; i < line.length; i++) {
    const c = line[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) return line.slice(start, i + 1);
    } else if (depth === 0 && c === ',') return line.slice(start, i);
  }
  return line.slice(start, i);
}
