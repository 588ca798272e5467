/**
 * Size guards for helpers that can build big values. They run before the allocation, so
 * that a template asking for a 2 GB string gets a clear error instead of killing the isolate.
 */
export class LimitError extends Error {
  constructor(
    message: string,
    readonly code: 'E_SIZE_LIMIT' | 'E_RECURSION_LIMIT' | 'E_OUTPUT_LIMIT' = 'E_SIZE_LIMIT',
  ) {
    super(message);
  }
}

/** Largest string a single helper may build (bytes, counted as UTF-16 units). */
export const MAX_STRING_LENGTH = 16 * 1024 * 1024;
/** Largest array a single helper may build. */
export const MAX_ARRAY_LENGTH = 1_000_000;

export function checkStringLength(n: number, what: string): void {
  if (!(n <= MAX_STRING_LENGTH)) {
    throw new LimitError(`${what} would build a string of ${Math.round(n)} characters (limit ${MAX_STRING_LENGTH})`);
  }
}

export function checkArrayLength(n: number, what: string): void {
  if (!(n <= MAX_ARRAY_LENGTH)) {
    throw new LimitError(`${what} would build an array of ${Math.round(n)} elements (limit ${MAX_ARRAY_LENGTH})`);
  }
}
