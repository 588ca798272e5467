/**
 * Standard output of the commands when its reader goes away (`smartcage plugins | head`): the
 * reader has what it wanted, so the command ends quietly with its status, not with an EPIPE
 * stack. Installed once by main(); writeOut waits until the text is handed to the system.
 */
let installed = false;

/**
 * When standard output is a closed pipe: the command ends as it would, with status 0 (writeOut
 * resolves, what it writes next goes nowhere), and one that would go on (`render --watch`) is
 * ended a second later. Not process.exit() at once: the sandbox may be making an isolate on
 * another thread right then (the next spare, D357), and a process ended under it crashed
 * (SIGSEGV in about half the runs of `smartcage render LONG | head`).
 */
export function quietOnClosedPipe(): void {
  if (installed) return;
  installed = true;
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE') throw e;
    if (closedPipe) return;
    closedPipe = true;
    setTimeout(() => process.exit(0), 1000).unref();
  });
}
let closedPipe = false;

/** Writes `text` to standard output and resolves once it is written (or the pipe closed). */
export function writeOut(text: string): Promise<void> {
  return new Promise((done) => {
    process.stdout.write(text, () => done());
  });
}
