/**
 * Test support for the string and html modifiers: calling a modifier as the runtime would
 * (declared defaults filled in), and calling the PHP reference of the same thing through the
 * oracle (PHP functions directly, Smarty 2 modifier bodies from smarty2-modifiers.php).
 */
import { fileURLToPath } from 'node:url';
import { plugins as stringPlugins } from '../../../src/plugins/string/index.js';
import { plugins as htmlPlugins } from '../../../src/plugins/html/index.js';
import type { ModifierContext, ModifierPlugin } from '../../../src/plugins/types.js';
import { type Value } from '../../../src/value/value.js';
import { toArg, type OracleCall } from '../../support/php-oracle.js';
import { testModifierContext } from '../../support/plugin-context.js';
import { bindModifier, withDefaults } from '../../../src/runtime/modifiers.js';
import { runBothWays } from '../../support/prepared.js';

const PHP_FILE = fileURLToPath(new URL('./smarty2-modifiers.php', import.meta.url));

/** Said in the header of fixtures whose answers come from smarty2-modifiers.php. */
export const SMARTY2_NOTE =
  'Smarty 2 and platform modifiers run their PHP bodies from test/plugins/string/smarty2-modifiers.php (the real Smarty 2.6.33 modifier code, Smarty 2 where it differs from Smarty 3); PHP functions are called as they are';

export const modifiers = new Map<string, ModifierPlugin>();
for (const p of [...stringPlugins, ...htmlPlugins]) if (p.kind === 'modifier') modifiers.set(p.name, p);

export function ctxFor(lang = 'ja'): ModifierContext {
  return testModifierContext({ lang });
}

/** Runs a modifier as the runtime does: omitted trailing parameters get their defaults; `prepare` checked too (test/support/prepared.ts). */
export function runModifier(name: string, input: Value, args: Value[] = [], ctx = ctxFor()): Value {
  const p = modifiers.get(name);
  if (!p) throw new Error(`no modifier ${name}`);
  return runBothWays(p, input, withDefaults(bindModifier(p), args), ctx, () => ctxFor());
}

export { outcome } from '../../support/php-oracle.js';

/** A call of `fn` in PHP with our values as arguments (the reference file is loaded). */
export function phpCall(fn: string, args: Value[]): OracleCall {
  const b64 = Buffer.from(JSON.stringify(args.map(toArg))).toString('base64');
  return {
    fn: '__eval',
    args: [
      `require_once ${JSON.stringify(PHP_FILE)}; return ${fn}(...array_map('untag', json_decode(base64_decode('${b64}'), true)));`,
    ],
  };
}
