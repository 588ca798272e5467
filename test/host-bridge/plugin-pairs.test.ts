/**
 * The two halves of every privileged plugin and host modifier: the declaration the registry
 * holds (with `host`) and the implementation the bridge runs (HOST_PLUGINS, HOST_MODIFIERS).
 * Each has exactly one of the other, and their files mirror each other:
 * src/plugins/host-<family>/<tag>.ts declares what src/host-plugins/<family>/<tag>.ts
 * implements, the tag written as the template writes it.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ALL_PLUGINS } from '../../src/plugins/registry.js';
import { HOST_MODIFIERS, HOST_PLUGINS } from '../../src/host-plugins/index.js';
import type { Plugin } from '../../src/plugins/types.js';
// @ts-expect-error: a plain .mjs script, no types
import { hostTable } from '../../scripts/host-table.mjs';

type TableCheck = (
  root: string,
  plugins: readonly { name: string; kind: string; host?: string }[],
) => { text?: string; problems?: string[] };

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DECLARATIONS = 'src/plugins';
const IMPLEMENTATIONS = 'src/host-plugins';

/** The .ts files under `dir` (relative to the repository), at any depth. */
function tsFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => `${dir}/${f.split('\\').join('/')}`)
    .sort();
}

/** Every value a module exports, with the module's path. */
async function exportsUnder(files: string[]): Promise<{ file: string; value: unknown }[]> {
  const out: { file: string; value: unknown }[] = [];
  for (const file of files) {
    const mod = (await import(join(ROOT, file))) as Record<string, unknown>;
    for (const value of Object.values(mod)) out.push({ file, value });
  }
  return out;
}

const declared = ALL_PLUGINS.filter((p) => p.host !== undefined);
const hostFamilies = readdirSync(join(ROOT, DECLARATIONS), { withFileTypes: true }).filter(
  (d) => d.isDirectory() && d.name.startsWith('host-'),
);
const declarationFiles = hostFamilies.flatMap((d) => tsFiles(`${DECLARATIONS}/${d.name}`));

function implementationOf(p: Plugin): { name: string } | undefined {
  const table: Readonly<Record<string, { name: string }>> = p.kind === 'modifier' ? HOST_MODIFIERS : HOST_PLUGINS;
  return table[p.name];
}

/** An implementation's shape (HostPlugin or HostModifier): a name and a run function. */
function looksImplemented(v: unknown): v is { name: string; run: unknown } {
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof (v as { name?: unknown }).name === 'string' &&
    typeof (v as { run?: unknown }).run === 'function'
  );
}

describe('host plugins: declarations and implementations in pairs', () => {
  it('every host declaration has an implementation of its kind, and every implementation a declaration', () => {
    const names = (kind: 'function' | 'modifier'): string[] =>
      declared
        .filter((p) => (p.kind === 'modifier') === (kind === 'modifier'))
        .map((p) => p.name)
        .sort();
    expect(Object.keys(HOST_PLUGINS).sort()).toEqual(names('function'));
    expect(Object.keys(HOST_MODIFIERS).sort()).toEqual(names('modifier'));
  });

  it('each half is in exactly one file, src/plugins/host-<family>/<tag>.ts and src/host-plugins/<family>/<tag>.ts', async () => {
    const declExports = await exportsUnder(declarationFiles);
    const implExports = (await exportsUnder(tsFiles(IMPLEMENTATIONS))).filter((e) => looksImplemented(e.value));
    const problems: string[] = [];
    for (const p of declared) {
      const label = `${p.kind} ${p.name}`;
      const declFiles = declExports.filter((e) => e.value === p).map((e) => e.file);
      const impl = implementationOf(p);
      const implFiles = implExports.filter((e) => e.value === impl).map((e) => e.file);
      if (declFiles.length !== 1)
        problems.push(
          `${label}: declared in ${declFiles.length} files under ${DECLARATIONS}/host-* (${declFiles.join(', ')})`,
        );
      if (implFiles.length !== 1)
        problems.push(
          `${label}: implemented in ${implFiles.length} files under ${IMPLEMENTATIONS} (${implFiles.join(', ')})`,
        );
      if (declFiles.length !== 1 || implFiles.length !== 1) continue;
      const family = /^src\/plugins\/host-([^/]+)\/([^/]+)\.ts$/.exec(declFiles[0]!);
      if (!family || family[2] !== p.name) {
        problems.push(`${label}: declared in ${declFiles[0]}, not ${DECLARATIONS}/host-<family>/${p.name}.ts`);
        continue;
      }
      const mirror = `${IMPLEMENTATIONS}/${family[1]}/${p.name}.ts`;
      if (implFiles[0] !== mirror) problems.push(`${label}: implemented in ${implFiles[0]}, not ${mirror}`);
    }
    expect(problems).toEqual([]);
  });

  it('no implementation outside the bridge tables', async () => {
    const registered = new Set<unknown>([...Object.values(HOST_PLUGINS), ...Object.values(HOST_MODIFIERS)]);
    const stray = (await exportsUnder(tsFiles(IMPLEMENTATIONS)))
      .filter((e) => looksImplemented(e.value) && !registered.has(e.value))
      .map((e) => `${e.file}: ${(e.value as { name: string }).name}`);
    expect(stray).toEqual([]);
  });

  it('the generated table (npm run reference) refuses a declaration without implementation and an implementation without declaration', () => {
    const check = hostTable as TableCheck;
    expect(check(ROOT, ALL_PLUGINS).problems).toBeUndefined();
    expect(check(ROOT, [...ALL_PLUGINS, { name: 'new_tag', kind: 'function', host: 'files' }]).problems).toEqual([
      'function new_tag: declared with host files but implemented nowhere under src/host-plugins',
    ]);
    expect(
      check(
        ROOT,
        ALL_PLUGINS.filter((p) => p.name !== 'gzip'),
      ).problems,
    ).toEqual(['gzip: implemented but not declared in src/plugins/host-plugins.ts']);
  });
});
