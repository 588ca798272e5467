/**
 * Test support for the php-family modifiers: running a modifier as the runtime does, turning
 * our values into oracle arguments, and a small seeded generator for random cases.
 */
import { plugins } from '../../../src/plugins/php/index.js';
import type { ModifierContext, ModifierPlugin } from '../../../src/plugins/types.js';
import { PhpArray, type Value } from '../../../src/value/value.js';
import { type OracleResult, type Tagged } from '../../support/php-oracle.js';
import { testModifierContext } from '../../support/plugin-context.js';
import { bindModifier, withDefaults } from '../../../src/runtime/modifiers.js';

export const modifiers = new Map<string, ModifierPlugin>();
for (const p of plugins) if (p.kind === 'modifier') modifiers.set(p.name, p);

export function runModifier(
  name: string,
  input: Value,
  args: Value[] = [],
  ctx: ModifierContext = testModifierContext(),
): Value {
  const p = modifiers.get(name);
  if (!p) throw new Error(`no modifier ${name}`);
  return p.run(input, withDefaults(bindModifier(p), args), ctx);
}

export { outcome, toArg } from '../../support/php-oracle.js';

export function phpOutcome(r: OracleResult): Tagged | 'error' {
  return r.ok ? r.value! : 'error';
}

/** The shared seeded generator (test/support/prng.ts), so random cases are the same on every run. */
export { mulberry32 as seeded } from '../../support/prng.js';

export function randomString(rnd: () => number, alphabet: readonly string[], maxLen: number): string {
  const n = Math.floor(rnd() * (maxLen + 1));
  let s = '';
  for (let i = 0; i < n; i++) s += alphabet[Math.floor(rnd() * alphabet.length)];
  return s;
}

/** Readable label for a case. */
export function label(v: unknown): string {
  return JSON.stringify(v, (_k, x) =>
    x instanceof PhpArray ? Object.fromEntries(x.entries()) : typeof x === 'bigint' ? `${x}n` : x,
  ).slice(0, 120);
}
