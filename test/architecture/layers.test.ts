/**
 * The layer rule of src/ (docs/architecture.md, table in scripts/lint/layers.mjs): no value-import
 * cycle between files, no import against the table, and a table without cycles. `npm run lint`
 * checks the same; this keeps it true for whoever runs only the tests.
 */
import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
// @ts-expect-error: a plain ES module without types, shared with eslint.config.js
import { checkLayers, layerViolation } from '../../scripts/lint/layers.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('layers of src/', () => {
  it('has no value-import cycle and no import the layer table forbids', () => {
    expect(checkLayers(root) as string[]).toEqual([]);
  });

  it('the rule bites: a plugin importing the runtime, the value kernel importing php', () => {
    expect(layerViolation('src/plugins/array/sort.ts', 'src/runtime/render-state.ts')).toMatch(
      /src\/plugins may not import src\/runtime/,
    );
    expect(layerViolation('src/value/convert.ts', 'src/php/args.ts')).toMatch(/src\/value may not import src\/php/);
    expect(layerViolation('src/compiler/index.ts', 'src/sandbox/pool.ts')).toMatch(/may not import/);
    expect(layerViolation('src/runtime/render-state.ts', 'src/plugins/registry.ts')).toBeNull();
  });
});
