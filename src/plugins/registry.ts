/**
 * Every implemented plugin, by family. The compiler and the isolate runtime both read this:
 * one declaration per plugin, one place that lists them. An engine's own plugins are not here:
 * they extend the built-in set for that engine alone (plugin-set.ts).
 */
import type { FunctionPlugin, ModifierPlugin, Plugin } from './types.js';
import { PluginSet } from './plugin-set.js';
import { plugins as core } from './core/index.js';
import { plugins as string } from './string/index.js';
import { plugins as html } from './html/index.js';
import { plugins as array } from './array/index.js';
import { plugins as json } from './json/index.js';
import { plugins as format } from './format/index.js';
import { plugins as date } from './date/index.js';
import { plugins as regex } from './regex/index.js';
import { plugins as util } from './util/index.js';
import { plugins as php } from './php/index.js';
import { HOST_FAMILIES } from './host-plugins.js';
import { plugins as markup } from './markup/index.js';

/**
 * The plugins of each family, keyed by the family's folder under src/plugins: `smartcage plugins`
 * and docs/reference.md show the family, and test/plugins/families.test.ts holds the keys to the folders.
 */
export const FAMILIES: Readonly<Record<string, readonly Plugin[]>> = {
  core,
  string,
  html,
  array,
  json,
  format,
  date,
  regex,
  util,
  php,
  markup,
  // Declarations only: src/host-plugins/<family>/<tag>.ts implements each on the host.
  ...HOST_FAMILIES,
};

export const ALL_PLUGINS: readonly Plugin[] = Object.values(FAMILIES).flat();

/** The built-in plugins: the set a compile and a bridge use unless an engine adds its own. */
export const BUILTIN_PLUGINS = PluginSet.builtIn(ALL_PLUGINS);

export function findFunction(name: string): FunctionPlugin | undefined {
  return BUILTIN_PLUGINS.findFunction(name);
}

export function findModifier(name: string): ModifierPlugin | undefined {
  return BUILTIN_PLUGINS.findModifier(name);
}
