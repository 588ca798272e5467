#!/usr/bin/env node
// Bundles src/forms-ui (the <json-field-form> custom element, its adapters, and the form model
// and validator of src/forms with ajv) into one browser script: dist/forms-ui.js, exposing the
// global `SmartcageForms`. Served by `smartcage serve`.
import { build } from 'esbuild';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
mkdirSync(`${root}dist`, { recursive: true });
await build({
  entryPoints: [`${root}src/forms-ui/index.ts`],
  bundle: true,
  format: 'iife',
  globalName: 'SmartcageForms',
  platform: 'browser',
  target: 'es2022',
  outfile: `${root}dist/forms-ui.js`,
  sourcemap: true,
  legalComments: 'none',
  logLevel: 'warning',
});
