/**
 * Writes generated JavaScript line by line, with indentation, and remembers for every line
 * which template position it came from: the line table that maps a runtime error's stack
 * frame back to the template (zero cost at run time).
 */
export interface Position {
  /** Index into the manifest's template list. */
  template: number;
  line: number;
  column: number;
}

export class CodeBuilder {
  private readonly lines: string[] = [];
  private readonly positions: (Position | null)[] = [];
  private depth = 0;
  private counter = 0;

  line(text: string, at: Position | null = null): void {
    this.lines.push(text === '' ? '' : '  '.repeat(this.depth) + text);
    this.positions.push(at);
  }

  indent(): void {
    this.depth++;
  }

  dedent(): void {
    this.depth--;
  }

  /** A fresh identifier for a temporary: `prefix` + a number. */
  fresh(prefix: string): string {
    return `${prefix}${++this.counter}`;
  }

  get lineCount(): number {
    return this.lines.length;
  }

  toString(): string {
    return this.lines.join('\n') + '\n';
  }

  /** [generated line (1-based), template index, line, column] for every positioned line. */
  lineTable(): [number, number, number, number][] {
    const out: [number, number, number, number][] = [];
    this.positions.forEach((p, i) => {
      if (p) out.push([i + 1, p.template, p.line, p.column]);
    });
    return out;
  }
}

/**
 * A JavaScript string literal for any text. JSON escapes quotes, controls and lone
 * surrogates; U+2028/U+2029 are escaped too, so a literal is safe even inside a // comment.
 */
export function lit(s: string): string {
  return JSON.stringify(s).replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}
