/**
 * A plugin's family is the folder its declaration lives in (`smartcage plugins`, docs/reference.md):
 * the registry's family keys must name those folders. A family's index.ts lists its plugins; the
 * host families are listed together in src/plugins/host-plugins.ts, each plugin once, from its folder.
 */
import { describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { FAMILIES } from '../../src/plugins/registry.js';

const PLUGINS_DIR = fileURLToPath(new URL('../../src/plugins/', import.meta.url));

describe('plugin families', () => {
  it('are exactly the folders of src/plugins, each with its index.ts', () => {
    const folders = readdirSync(PLUGINS_DIR, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name);
    expect(Object.keys(FAMILIES).sort()).toEqual(folders.sort());
  });

  it('hold the plugins that their folder declares', async () => {
    for (const family of Object.keys(FAMILIES)) {
      if (family.startsWith('host-')) continue;
      const mod = (await import(join(PLUGINS_DIR, family, 'index.ts'))) as { plugins: unknown[] };
      expect(FAMILIES[family], family).toEqual(mod.plugins);
    }
  });

  it('host families hold every declaration of their folder, and only those', async () => {
    for (const family of Object.keys(FAMILIES).filter((f) => f.startsWith('host-'))) {
      const declared: unknown[] = [];
      for (const file of readdirSync(join(PLUGINS_DIR, family)).filter((f) => f.endsWith('.ts'))) {
        const mod = (await import(join(PLUGINS_DIR, family, file))) as { default?: { host?: unknown } };
        if (mod.default?.host !== undefined) declared.push(mod.default);
      }
      expect(new Set(FAMILIES[family]), family).toEqual(new Set(declared));
    }
  });
});
