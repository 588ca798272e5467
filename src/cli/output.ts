/**
 * Standard output of the commands when its reader goes away (`smartcage plugins | head`): the
 * reader has what it wanted, so the command ends quietly with its status, not with an EPIPE
 * stack. Installed once by main(); writeOut waits until the text is handed to the system.
 */
let installed = false;

/** Ends the process at once, with status 0, when standard output is a closed pipe. */
export function quietOnClosedPipe(): void {
  if (installed) return;
  installed = true;
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(0);
    throw e;
  });
}

/** Writes `text` to standard output and resolves once it is written (or the pipe closed). */
export function writeOut(text: string): Promise<void> {
  return new Promise((done) => {
    process.stdout.write(text, () => done());
  });
}
