/**
 * A 32-bit hash of a string for spreading names over a few slots (tenants over sandbox workers,
 * sites over serve's children). FNV-1a alone will not do: its low bit is the parity of the low
 * bits of the characters, and `% 2` reads only that (tenants `site-a`, `site-c`, `site-e`... all
 * went to one of 2 workers), so its result goes through murmur3's finalizer, which spreads every
 * input bit over the low bits. Not for anything an adversary must not steer.
 */

/** FNV-1a, 32 bits, of `s`'s UTF-16 code units. */
export function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** murmur3's 32-bit finalizer: every bit of `h` reaches every bit of the result. */
export function mix32(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** `s` hashed and mixed: what `% n` may read. */
export function spreadHash(s: string): number {
  return mix32(fnv1a(s));
}
