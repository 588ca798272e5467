#!/usr/bin/env node
/**
 * Prints the import cycles among the files under a folder, one cycle a line (nothing when there
 * are none; exit code 1 when there are). `--types` counts type-only imports too.
 * Usage: node scripts/lint/cycles.mjs [--types] [dir=src]   (from the repository root)
 */
import { allImports, cycles, valueImports } from './imports.mjs';

const args = process.argv.slice(2);
const withTypes = args.includes('--types');
const dir = args.find((a) => !a.startsWith('--')) ?? 'src';
const found = cycles((withTypes ? allImports : valueImports)(process.cwd(), dir));
for (const c of found) console.log(`${c.length} files: ${c.join(' ')}`);
process.exitCode = found.length > 0 ? 1 : 0;
