/**
 * A fixed number of slots (browser pages, OCR jobs) with a capped queue in front: a job waits for
 * a free slot, but never longer than its own deadline, and no more than `queueCap` jobs wait at
 * once. Past the cap the job is refused at once (E_HOST_BUSY) rather than piling up host work.
 */
import { BridgeError } from '../../host-api/errors.js';

export class Slots {
  private free: number;
  private readonly waiting: (() => void)[] = [];

  constructor(
    readonly size: number,
    readonly queueCap: number,
    private readonly what: string,
  ) {
    this.free = size;
  }

  /** Jobs running and waiting, for tests and the embedder's metrics. */
  get load(): { running: number; waiting: number } {
    return { running: this.size - this.free, waiting: this.waiting.length };
  }

  /** Runs `job` in a slot; waits at most `timeoutMs` for one. */
  async run<T>(timeoutMs: number, job: () => Promise<T>): Promise<T> {
    await this.acquire(timeoutMs);
    try {
      return await job();
    } finally {
      this.release();
    }
  }

  private acquire(timeoutMs: number): Promise<void> {
    if (this.free > 0) {
      this.free--;
      return Promise.resolve();
    }
    if (this.waiting.length >= this.queueCap) {
      return Promise.reject(
        new BridgeError(
          'E_HOST_BUSY',
          `${this.what}: all ${this.size} are busy and ${this.queueCap} jobs already wait`,
        ),
      );
    }
    return new Promise((resolve, reject) => {
      const wake = (): void => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(
        () => {
          const i = this.waiting.indexOf(wake);
          if (i >= 0) this.waiting.splice(i, 1);
          reject(new BridgeError('E_WALL_TIMEOUT', `${this.what}: no free slot before the render's wall time ran out`));
        },
        Math.max(0, timeoutMs),
      );
      this.waiting.push(wake);
    });
  }

  private release(): void {
    const next = this.waiting.shift();
    // The slot passes straight to the next job: `free` does not change.
    if (next) next();
    else this.free++;
  }
}
