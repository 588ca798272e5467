/**
 * The names generated code relies on (src/compiler/codegen/runtime-names.ts): the typecheck
 * holds the listed members to the runtime's types; this holds the emitters to the list.
 */
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { STATE_MEMBERS } from '../../src/compiler/codegen/runtime-names.js';

const COMPILER = fileURLToPath(new URL('../../src/compiler', import.meta.url));

function compilerSources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return compilerSources(path);
    return e.name.endsWith('.ts') && e.name !== 'parser.generated.ts' ? [path] : [];
  });
}

describe('runtime names', () => {
  it('every member of `$` the compiler writes is a listed RenderState member', () => {
    const written = new Set<string>();
    for (const file of compilerSources(COMPILER)) {
      for (const m of readFileSync(file, 'utf8').matchAll(/\$\.([A-Za-z_]\w*)/g)) written.add(m[1]);
    }
    expect([...written].filter((name) => !(STATE_MEMBERS as readonly string[]).includes(name))).toEqual([]);
  });
});
