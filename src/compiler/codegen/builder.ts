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

/** Thrown by CodeBuilder.line past its size limit: the compile stops (compile() turns it into E_TEMPLATE_TOO_LARGE). */
export class CodeTooLarge extends Error {}

export class CodeBuilder {
  private readonly lines: string[] = [];
  private chars = 0;
  private readonly positions: (Position | null)[] = [];
  private depth = 0;
  private counter = 0;
  /** Positioned lines so far: the number of the last one is its 1-based index in the line table. */
  private marks = 0;
  private pendingMark = false;

  /** `maxChars`: the generated text may not grow past it (checked as it grows, so a giant template stops early). */
  constructor(private readonly maxChars = Infinity) {}

  line(text: string, at: Position | null = null): void {
    if (at) {
      this.marks++;
      // A statement that calls a plugin or modifier first records where it is (`P[0] = n`), so that a
      // limit enforced from outside the isolate can name the template line (docs/sandbox.md).
      if (this.pendingMark && !text.startsWith('}')) text = `P[0] = ${this.marks}; ${text}`;
      this.pendingMark = false;
    }
    const out = text === '' ? '' : '  '.repeat(this.depth) + text;
    this.chars += out.length + 1;
    if (this.chars > this.maxChars) throw new CodeTooLarge();
    this.lines.push(out);
    this.positions.push(at);
  }

  /** The next positioned line calls something that may run long: it stores its position first. */
  markNext(): void {
    this.pendingMark = true;
  }

  /** The position slot value of the last positioned line (its 1-based index in the line table). */
  get lastMark(): number {
    return this.marks;
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

  /** Characters written so far, newlines included (the length of toString()). */
  get length(): number {
    return this.chars;
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
  return JSON.stringify(s)
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
