/** Small helpers shared by the array modifiers. */
import type { Value } from '../../value/value.js';

/** A declared parameter that the template left out (no default was filled in). */
export function given(args: Value[], i: number): boolean {
  return i < args.length && args[i] !== undefined;
}
