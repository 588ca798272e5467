/**
 * A sentence per diagnostic code, for SARIF's rules: the one-line comments beside each code in
 * src/protocol/error-codes.ts, which are the codes' documentation. They are read from that
 * module's file (the build keeps comments; from the sources it is the .ts file) rather than
 * copied, so there is one list to keep. If the file cannot be read, a code describes itself.
 */
import { readFileSync } from 'node:fs';

const CANDIDATES = ['../../protocol/error-codes.js', '../../protocol/error-codes.ts'];

/** `'E_SYNTAX', // the text does not read...` and `| 'W_IGNORED_TEXT'; // text after...` */
const ENTRY = /^\s*\|?\s*'([EW]_[A-Z0-9_]+)'[,;]?\s*\/\/\s*(.+?)\s*$/gm;

let cached: Map<string, string> | undefined;

export function codeDescriptions(): ReadonlyMap<string, string> {
  if (cached) return cached;
  cached = new Map();
  for (const candidate of CANDIDATES) {
    let text: string;
    try {
      text = readFileSync(new URL(candidate, import.meta.url), 'utf8');
    } catch {
      continue;
    }
    for (const m of text.matchAll(ENTRY)) cached.set(m[1]!, m[2]!);
    break;
  }
  return cached;
}
