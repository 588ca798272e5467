/**
 * Writing template variables. The platform's {assign} extensions live here so that every
 * plugin that takes a `var` name follows them: `a.b.c` writes a nested key, creating arrays
 * on the way (up to 4 levels), and a trailing dot (`list.`) appends.
 */
import { PhpArray, type Value } from './value.js';

export type Scope = Record<string, Value>;

/**
 * A new variable scope. No prototype, so that `{$constructor}` or `{$__proto__}` are names like
 * any other. Made with setPrototypeOf, not Object.create(null): V8 gives an Object.create(null)
 * object dictionary properties from the start, and generated code reads and writes the scope by
 * name in every loop iteration (the benchmark page, row (a): 225 -> 215 µs per render). Past
 * about 128 names V8 turns this one into a dictionary too, which is only slower.
 */
export function newScope(): Scope {
  return Object.setPrototypeOf({}, null) as Scope;
}

/** Marks an array as held in more than one place (copy-on-write, see php-array.ts). */
export function share<T extends Value>(v: T): T {
  if (v instanceof PhpArray) v.shared = true;
  return v;
}

export class AssignError extends Error {
  readonly code = 'E_ASSIGN';
}

export const MAX_DEPTH = 4;

/**
 * Stores a value. It does not mark arrays shared: whoever hands over an array that is also held
 * elsewhere marks it (the compiler marks every attribute value read from a variable), so that an
 * array built by a plugin stays private and can grow in place.
 */
export function assignVar(scope: Scope, name: string, value: Value): void {
  if (!name.includes('.')) {
    scope[name] = value;
    return;
  }
  // split no further than an assignable depth can reach (a name of 16M dots would be 16M parts)
  const parts = name.split('.', MAX_DEPTH + 2);
  if (parts.length > MAX_DEPTH + 1) throw new AssignError(`cannot assign to "${name}": at most ${MAX_DEPTH} levels`);
  const append = parts[parts.length - 1] === '';
  if (append) parts.pop();
  if (parts.some((p) => p === '')) throw new AssignError(`cannot assign to "${name}": empty key in the name`);
  if (parts.length > MAX_DEPTH) throw new AssignError(`cannot assign to "${name}": at most ${MAX_DEPTH} levels`);
  const [root, ...keys] = parts;
  const top = writable(scope[root]);
  scope[root] = top;
  let container = top;
  for (let i = 0; i < keys.length; i++) {
    const last = i === keys.length - 1;
    if (last && !append) {
      container.set(keys[i], value);
      return;
    }
    const child = writable(container.get(keys[i]));
    container.set(keys[i], child);
    container = child;
  }
  container.push(value);
}

/** The array to write into: a private copy of a shared one, or a new array in place of a scalar. */
function writable(v: Value): PhpArray {
  return v instanceof PhpArray ? v.forWrite() : PhpArray.empty();
}
