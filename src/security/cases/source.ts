/** Reads one of our own source modules (TypeScript when running from src/, JavaScript from dist/), for static checks. */
import { readFileSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export function sourceOf(module: string): string {
  for (const ext of ['.ts', '.js']) {
    const path = fileURLToPath(new URL(`../../${module}${ext}`, import.meta.url));
    if (existsSync(path)) return readFileSync(path, 'utf8');
  }
  throw new Error(`source of ${module} not found`);
}

/** Every module below one of our folders (`bridge`): path relative to it, and its text. */
export function sourcesUnder(folder: string): [string, string][] {
  const dir = fileURLToPath(new URL(`../../${folder}/`, import.meta.url));
  return (readdirSync(dir, { recursive: true, encoding: 'utf8' }) as string[])
    .filter((f) => /\.(ts|js)$/.test(f) && !f.endsWith('.d.ts'))
    .map((f) => [f, readFileSync(join(dir, f), 'utf8')]);
}
