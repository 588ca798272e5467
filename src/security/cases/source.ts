/** Reads one of our own source modules (TypeScript when running from src/, JavaScript from dist/), for static checks. */
import { readFileSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export function sourceOf(module: string): string {
  for (const ext of ['.ts', '.js']) {
    const path = fileURLToPath(new URL(`../../${module}${ext}`, import.meta.url));
    if (existsSync(path)) return readFileSync(path, 'utf8');
  }
  throw new Error(`source of ${module} not found`);
}
