/**
 * One child process of the OCR tools: no shell (arguments as a list), no stdin, a deadline after
 * which it is killed, and a cap on what it may print (killed past it). The environment is the
 * bare minimum, so no variable of the host leaks into a tool or changes how it behaves.
 */
import { spawn } from 'node:child_process';

class ProcessError extends Error {
  constructor(
    readonly reason: 'timeout' | 'output' | 'exit' | 'spawn',
    message: string,
  ) {
    super(message);
  }
}

export interface RunOptions {
  timeoutMs: number;
  maxOutputBytes: number;
  cwd: string;
  env?: Record<string, string>;
  /** Killed once this aborts (the render ended, D152), as at its deadline. */
  signal?: AbortSignal;
}

/** The process's stdout, when it exits with 0 within its deadline and output cap. */
export function runProcess(command: string, args: readonly string[], o: RunOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: o.cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: '/usr/bin:/bin', LANG: 'C.UTF-8', ...o.env },
    });
    const out: Buffer[] = [];
    let size = 0;
    let failed: ProcessError | null = null;
    const fail = (e: ProcessError): void => {
      failed ??= e;
      child.kill('SIGKILL');
    };
    const timer = setTimeout(
      () => fail(new ProcessError('timeout', `${command} took longer than ${o.timeoutMs} ms`)),
      Math.max(0, o.timeoutMs),
    );
    const onAbort = (): void => fail(new ProcessError('timeout', `${command} was stopped: its render ended`));
    if (o.signal?.aborted) onAbort();
    else o.signal?.addEventListener('abort', onAbort, { once: true });
    child.on('close', () => o.signal?.removeEventListener('abort', onAbort));
    child.stdout.on('data', (c: Buffer) => {
      size += c.length;
      if (size > o.maxOutputBytes)
        fail(new ProcessError('output', `${command} printed more than ${o.maxOutputBytes} bytes`));
      else out.push(c);
    });
    // stderr is drained (a full pipe would stall the tool) and dropped: it may name host paths.
    child.stderr.resume();
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(
        new ProcessError('spawn', `${command} could not be started (${(e as NodeJS.ErrnoException).code ?? 'error'})`),
      );
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (failed) reject(failed);
      else if (code !== 0) reject(new ProcessError('exit', `${command} exited with ${code}`));
      else resolve(Buffer.concat(out));
    });
  });
}
