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

/**
 * Checks the pieces `text.split(sep)` would give against MAX_ARRAY_LENGTH without building
 * them: a native split of a 16M-character string is one call the CPU timeout cannot interrupt
 * and an array of up to 16M elements (128 MB). Counting takes a JavaScript loop, and only when
 * the text is long enough to hold that many separators.
 */
export function checkSplitLength(text: string, sep: string, what: string): void {
  if (sep === '') return checkArrayLength(text.length, what);
  if (text.length < MAX_ARRAY_LENGTH * sep.length) return;
  let n = 1;
  for (let at = text.indexOf(sep); at >= 0; at = text.indexOf(sep, at + sep.length)) {
    if (++n > MAX_ARRAY_LENGTH) checkArrayLength(n, what);
  }
}
