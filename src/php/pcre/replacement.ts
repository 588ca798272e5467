/**
 * preg_replace's replacement string, read as php_pcre.c reads it: `\n`, `\nn`, `$n`, `$nn`,
 * `${n}`, `${nn}` are group references (0..99); a backslash before `\` or `$` makes that
 * character literal (the backslash is dropped); everything else is copied.
 */
export type ReplacementPart = string | number;

export function parseReplacement(r: string): ReplacementPart[] {
  const parts: ReplacementPart[] = [];
  let lit = '';
  // The last character copied to the output (PHP's walk_last); a reference does not update it.
  let last = '';
  let i = 0;
  while (i < r.length) {
    const c = r[i];
    if (c === '\\' || c === '$') {
      if (last === '\\') {
        lit = lit.slice(0, -1) + c;
        i++;
        last = '';
        continue;
      }
      const ref = readRef(r, i);
      if (ref) {
        if (lit) parts.push(lit);
        lit = '';
        parts.push(ref.group);
        i = ref.end;
        continue;
      }
    }
    lit += c;
    last = c;
    i++;
  }
  if (lit) parts.push(lit);
  return parts;
}

const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';

function readRef(r: string, i: number): { group: number; end: number } | null {
  // PHP reads a NUL-terminated buffer: a NUL (or the end) right after the sigil ends it.
  if (i + 1 >= r.length || r[i + 1] === '\0') return null;
  let p = i;
  let brace = false;
  if (r[p] === '$' && r[p + 1] === '{') {
    brace = true;
    p++;
  }
  p++;
  if (!isDigit(r[p])) return null;
  let group = Number(r[p++]);
  if (isDigit(r[p])) group = group * 10 + Number(r[p++]);
  if (brace) {
    if (r[p] !== '}') return null;
    p++;
  }
  return { group, end: p };
}
