/**
 * Whether Object.prototype has an enumerable key, which `for...in` would list on every plain
 * object. The walks that read plain data by `for...in` (json_encode's stringify path, the vars'
 * table encoder) decline when it has one: inside the sandbox the lockdown rules it out, on the
 * host an embedder's library may have added one.
 */
export function prototypeLendsKeys(): boolean {
  for (const _ in EMPTY) return true;
  return false;
}
const EMPTY = {};
