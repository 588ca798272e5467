/** The templates and custom functions of a site folder, by name, read from disk at each call. */
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** Names a template may use: relative, no `..`, no hidden files, no backslashes. */
const SAFE_NAME = /^(?!.*(?:^|\/)\.)[A-Za-z0-9_\-./]{1,200}$/;

/** A SourceLookup over a folder: `name` + `suffix` inside it, or undefined. */
function folderLookup(folder: string, suffix: string): (name: string) => string | undefined {
  return (name) => {
    if (!SAFE_NAME.test(name) || name.startsWith('/')) return undefined;
    try {
      return readFileSync(path.join(folder, name + suffix), 'utf8');
    } catch {
      return undefined;
    }
  };
}

/** A site's templates/ and functions/ (`.tpl`), as the engine and the cache rule look them up. */
export function siteSources(dir: string): {
  templates: (name: string) => string | undefined;
  functions: (name: string) => string | undefined;
} {
  return {
    templates: folderLookup(path.join(dir, 'templates'), ''),
    functions: folderLookup(path.join(dir, 'functions'), '.tpl'),
  };
}
