/**
 * A plugin's family is the folder its declaration lives in (`smartcage plugins`, docs/reference.md):
 * the registry's family keys must name those folders, each family's index.ts lists its plugins.
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
      const mod = (await import(join(PLUGINS_DIR, family, 'index.ts'))) as { plugins: unknown[] };
      expect(FAMILIES[family], family).toEqual(mod.plugins);
    }
  });
});
