/** A progress bar on stderr for long CLI work; silent when stderr is not a terminal. */
export class Progress {
  private n = 0;
  private readonly tty = Boolean(process.stderr.isTTY);
  private shown = false;

  constructor(
    private readonly label: string,
    private readonly total: number,
  ) {}

  tick(): void {
    this.n++;
    if (!this.tty || this.total < 2) return;
    const width = 30;
    const filled = Math.round((this.n / this.total) * width);
    process.stderr.write(
      `\r${this.label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${this.n}/${this.total}`,
    );
    this.shown = true;
  }

  clear(): void {
    if (this.shown) process.stderr.write('\r\x1b[K');
    this.shown = false;
  }

  done(): void {
    this.clear();
  }
}
