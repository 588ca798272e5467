#!/usr/bin/env node
/**
 * Prints the import cycles among the files under one or more folders, one cycle a line (nothing
 * when there are none; exit code 1 when there are). `--types` counts type-only imports too.
 * Usage: node scripts/lint/cycles.mjs [--types] [dir=src ...]   (from the repository root)
 */
import { allImports, cycles, valueImports } from './imports.mjs';

const args = process.argv.slice(2);
const withTypes = args.includes('--types');
const dirs = args.filter((a) => !a.startsWith('--'));
const graphOf = withTypes ? allImports : valueImports;
const found = cycles(new Map((dirs.length ? dirs : ['src']).flatMap((d) => [...graphOf(process.cwd(), d)])));
for (const c of found) console.log(`${c.length} files: ${c.join(' ')}`);
process.exitCode = found.length > 0 ? 1 : 0;
