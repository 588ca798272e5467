/**
 * The one reading of isolated-vm's errors. isolated-vm (pinned at 7.0.1 in package.json) throws
 * plain Errors whose message alone says what stopped the isolate; they are compared here, whole,
 * with the messages that version gives, and test/sandbox/ivm-errors.test.ts makes real isolates
 * give each, so an upgrade that changes one fails that test instead of turning a CPU timeout into
 * a crash. Anything else is the script's own error.
 */

/** What stopped a call into an isolate. */
export type IsolateFailure = 'cpu-timeout' | 'memory-limit' | 'disposed' | 'script';

/** isolated-vm's timeout message; also what a worker's render that cut itself at its deadline is read as (D187). */
export const CUT_AS_TIMEOUT = 'Script execution timed out.';

const MESSAGES: ReadonlyMap<string, IsolateFailure> = new Map([
  [CUT_AS_TIMEOUT, 'cpu-timeout'],
  ['Isolate was disposed during execution due to memory limit', 'memory-limit'],
  ['Isolate was disposed during execution', 'disposed'],
  ['Isolate is disposed', 'disposed'],
]);

export function classifyIsolateError(e: unknown): IsolateFailure {
  return (e instanceof Error && MESSAGES.get(e.message)) || 'script';
}
