/**
 * A modifier called as the runtime calls it: `run`, and where the modifier has a `prepare` for
 * these arguments (the runtime uses it when a template writes them as literals), the prepared
 * function too, which must give the same value or the same error. A mismatch throws, whatever
 * the test then expects.
 */
import type { ModifierContext, ModifierPlugin } from '../../src/plugins/types.js';
import type { Value } from '../../src/value/value.js';
import { toTagged } from './php-oracle.js';

/** `args`: complete, defaults filled in. `fresh` gives the prepared call a context of its own (warnings are not counted twice). */
export function runBothWays(
  p: ModifierPlugin,
  input: Value,
  args: Value[],
  ctx: ModifierContext,
  fresh: () => ModifierContext,
): Value {
  const prepared = p.prepare?.(Object.freeze(args.slice()));
  if (prepared) {
    const viaPrepared = attempt(() => prepared(input, fresh()));
    const viaRun = attempt(() => p.run(input, args, fresh()));
    if (viaPrepared !== viaRun) throw new Error(`${p.name}: prepare gives ${viaPrepared} where run gives ${viaRun}`);
  }
  return p.run(input, args, ctx);
}

function attempt(f: () => Value): string {
  try {
    return JSON.stringify(toTagged(f()));
  } catch (e) {
    return `${(e as Error).constructor.name}: ${(e as Error).message}`;
  }
}
