/** The orchestrator's side of a benchmark child process (lib/child.ts). */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const CHILD = fileURLToPath(new URL('./child.ts', import.meta.url));

export class Child {
  private readonly proc: ChildProcess;
  private readonly pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  private nextId = 1;
  readonly ready: Promise<void>;

  constructor(
    readonly suite: string,
    quick: boolean,
  ) {
    this.proc = fork(CHILD, [suite, ...(quick ? ['--quick'] : [])], {
      execArgv: ['--no-node-snapshot', '--expose-gc', '--import', 'tsx'],
      env: { ...process.env, TZ: 'UTC' },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      serialization: 'advanced',
    });
    this.ready = new Promise((resolve, reject) => {
      this.pending.set(0, { resolve: () => resolve(), reject });
    });
    this.proc.on('message', (m: { id: number; result?: unknown; error?: string }) => {
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      if (m.error) p.reject(new Error(`[${suite}] ${m.error}`));
      else p.resolve(m.result);
    });
    this.proc.on('exit', (code) => {
      for (const p of this.pending.values()) p.reject(new Error(`[${suite}] the benchmark process exited (${code})`));
      this.pending.clear();
    });
  }

  call<T>(cmd: string, extra: Record<string, unknown> = {}): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.proc.send({ id, cmd, ...extra });
    });
  }

  async exit(): Promise<void> {
    await this.call('exit').catch(() => undefined);
  }
}
