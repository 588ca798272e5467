/**
 * `o[k] = x` for a key that came from template data, on an object made by this code. Inside the
 * isolate the lockdown froze Object.prototype, so `=` of a key it has (`constructor`, `toString`)
 * throws there ("Cannot assign to read only property", V8's override mistake), and `__proto__`
 * sets the object's prototype instead of a key anywhere. Such a key is defined as an own data
 * property, which is what PHP holds and what JSON.stringify and a structured clone copy.
 */
export function setOwn(o: Record<string, unknown>, k: string | number, x: unknown): void {
  // On an object being filled, a key found by `in` is an inherited one: each key comes once.
  if (k in o) Object.defineProperty(o, k, { value: x, enumerable: true, writable: true, configurable: true });
  else o[k] = x;
}
