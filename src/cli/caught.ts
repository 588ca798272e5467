/**
 * What the command reads of a value it caught, without asserting its type: anything may be
 * thrown (a driver's object, a string), so each reader checks before it looks.
 */

/** The code of a Node error (`ENOENT`, `EADDRINUSE`, `ERR_PARSE_ARGS_UNKNOWN_OPTION`...), or undefined when what was thrown has none. */
export function nodeErrorCode(e: unknown): string | undefined {
  return e instanceof Error && 'code' in e && typeof e.code === 'string' ? e.code : undefined;
}

/** The first line of what was thrown: a database driver's message goes on with lines for its developers. */
export function firstLine(e: unknown): string {
  return (e instanceof Error ? e.message : String(e)).split('\n')[0]!;
}
