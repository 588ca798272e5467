/**
 * Where a place in a template is, for completion and hover, read from the text as the editor
 * has it (often not a template that parses yet): inside which tag, and what of that tag comes
 * before. Comments and {literal} blocks hold no tags; quotes inside a tag hide `}`, `|` and `=`.
 */

export interface OpenTag {
  /** Offset of the tag's `{`. */
  start: number;
  /** The tag from after its `{` up to the place, every character inside quotes replaced by `_`. */
  text: string;
  /** The place is inside a quoted string. */
  inString: boolean;
}

/** A complete tag before the place: its name and whether it is a closing tag (`{/name}`). */
export interface TagHead {
  name: string;
  closing: boolean;
}

const LITERAL_START = /\{[ \t\r\n]*literal[ \t\r\n]*\}/y;
const LITERAL_END = /\{[ \t\r\n]*\/literal[ \t\r\n]*\}/g;
const HEAD = /^[ \t\r\n]*(\/?)[ \t\r\n]*([A-Za-z_][A-Za-z0-9_]*)/;

/** The tags that end before `place`, and the tag `place` is inside of (null when in text, a comment or a literal block). */
export function scanTo(source: string, place: number): { before: TagHead[]; open: OpenTag | null } {
  const offset = Math.min(place, source.length);
  const before: TagHead[] = [];
  let i = 0;
  while (i < offset) {
    const lb = source.indexOf('{', i);
    if (lb < 0 || lb >= offset) break;
    if (source.startsWith('{*', lb)) {
      const end = source.indexOf('*}', lb + 2);
      if (end < 0) break;
      i = end + 2;
      continue;
    }
    LITERAL_START.lastIndex = lb;
    if (LITERAL_START.test(source)) {
      LITERAL_END.lastIndex = LITERAL_START.lastIndex;
      if (!LITERAL_END.exec(source)) break;
      i = LITERAL_END.lastIndex;
      continue;
    }
    let text = '';
    let quote: string | null = null;
    let j = lb + 1;
    for (; ; j++) {
      if (j >= offset) return { before, open: { start: lb, text, inString: quote !== null } };
      const c = source[j]!;
      if (quote !== null) {
        if (c === quote) {
          quote = null;
          text += c;
        } else if (c === '\\' && j + 1 < offset) {
          text += '__';
          j++;
        } else text += '_';
        continue;
      }
      if (c === '}') break;
      if (c === '"' || c === "'") quote = c;
      text += c;
    }
    const head = HEAD.exec(text);
    if (head) before.push({ name: head[2]!, closing: head[1] === '/' });
    i = j + 1;
  }
  return { before, open: null };
}

/** The blocks still open after these tags, innermost last; `isBlock` says which names are closed by `{/name}`. */
export function openBlocks(before: readonly TagHead[], isBlock: (name: string) => boolean): string[] {
  const stack: string[] = [];
  for (const t of before) {
    if (!t.closing) {
      if (isBlock(t.name)) stack.push(t.name);
      continue;
    }
    const at = stack.lastIndexOf(t.name);
    if (at >= 0) stack.length = at;
  }
  return stack;
}
