/**
 * Host modifiers (`{$ip|getCountryFromIP}`): modifiers whose work needs a host capability.
 * Their declaration has no `run` of its own; the one made here converts the input and the
 * arguments as PHP's parameter parsing does for the declared types (a TypeError becomes null
 * plus a warning in the runtime, as for every PHP modifier) and asks the host, which checks
 * them again, since nothing the isolate sends is trusted.
 */
import type { ModifierParam, ModifierPlugin } from './types.js';
import type { HostCapability } from '../host-api/capabilities.js';
import { arrayArg, boolArg, intArg, numberArg, strArg } from '../php/args.js';
import type { Value } from '../value/value.js';

export type HostModifierDeclaration = Omit<ModifierPlugin, 'run' | 'byReference' | 'host' | 'input'> & {
  host: HostCapability;
  input: ModifierParam;
};

/** A value as a PHP function's parameter of this type receives it (coercive mode). */
function phpParam(v: Value, fn: string, pos: number, p: ModifierParam): Value {
  switch (p.type) {
    case 'string':
      return strArg(v, fn, pos, p.name);
    case 'int':
      return intArg(v, fn, pos, p.name);
    case 'number':
      return numberArg(v, fn, pos, p.name);
    case 'bool':
      return boolArg(v, fn, pos, p.name);
    case 'array':
      return arrayArg(v, fn, pos, p.name);
    default:
      return v;
  }
}

export function defineHostModifier<const D extends HostModifierDeclaration>(d: D): ModifierPlugin & D {
  return {
    ...d,
    run(input, args, ctx) {
      const given = args.map((a, i) => (i < d.params.length ? phpParam(a, d.name, i + 2, d.params[i]!) : a));
      return ctx.askHost(d.name, phpParam(input, d.name, 1, d.input), given);
    },
  };
}
