/**
 * The `filter` of assign_csv_table: a small condition language over a master table's columns,
 * parsed on the host, so it is bounded: at most MAX_CHARS characters, MAX_CONDITIONS conditions
 * and MAX_DEPTH levels of parentheses, and it names only columns of `allow_list`.
 *
 *   filter     := or
 *   or         := and ( "OR" and )*
 *   and        := operand ( "AND" operand )*
 *   operand    := "(" or ")" | condition
 *   condition  := column ( "=" | "!=" | "<>" ) literal
 *   column     := letter ( letter | digit | "_" )*          (a column name of the table)
 *   literal    := '"' text '"' | "'" text "'" | number       (backslash escapes the quote and itself)
 *
 * AND and OR are case-insensitive. A condition compares the cell's text with the literal's text
 * exactly (`code=13` matches "13", not "013").
 */
import { BridgeError } from '../../host-api/errors.js';

export const MAX_CHARS = 512;
export const MAX_CONDITIONS = 32;
export const MAX_DEPTH = 8;

type Token = { kind: 'open' | 'close' | 'and' | 'or' | 'eq' | 'ne' | 'name' | 'literal'; text: string; at: number };
export type RowTest = (row: readonly string[]) => boolean;

const NAME = /[\p{L}_][\p{L}\p{N}_]*/uy;
const NUMBER = /-?\d+(?:\.\d+)?/y;

function fail(at: number, why: string): never {
  throw new BridgeError('E_BAD_ATTRIBUTE', `{assign_csv_table} filter= at character ${at + 1}: ${why}`);
}

function tokenize(text: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    const at = i;
    if (c === '(' || c === ')') {
      out.push({ kind: c === '(' ? 'open' : 'close', text: c, at });
      i++;
    } else if (c === '=') {
      out.push({ kind: 'eq', text: c, at });
      i++;
    } else if (text.startsWith('!=', i) || text.startsWith('<>', i)) {
      out.push({ kind: 'ne', text: text.slice(i, i + 2), at });
      i += 2;
    } else if (c === '"' || c === "'") {
      let value = '';
      i++;
      for (;;) {
        if (i >= text.length) fail(at, 'a string is never closed');
        const d = text[i]!;
        if (d === c) break;
        if (d === '\\' && (text[i + 1] === c || text[i + 1] === '\\')) i++;
        value += text[i];
        i++;
      }
      i++;
      out.push({ kind: 'literal', text: value, at });
    } else {
      NUMBER.lastIndex = i;
      NAME.lastIndex = i;
      const num = NUMBER.exec(text);
      const name = num ? null : NAME.exec(text);
      if (num) {
        out.push({ kind: 'literal', text: num[0], at });
        i += num[0].length;
      } else if (name) {
        const word = name[0].toUpperCase();
        out.push({ kind: word === 'AND' ? 'and' : word === 'OR' ? 'or' : 'name', text: name[0], at });
        i += name[0].length;
      } else fail(at, `unexpected "${c}"`);
    }
  }
  return out;
}

/**
 * Parses `text` into a test on rows; `allowed` are the allow_list's names and `columns` the
 * table's column names (a name's index is its cell's). E_BAD_ATTRIBUTE, saying where, when the
 * text breaks a rule.
 */
export function compileFilter(text: string, allowed: ReadonlySet<string>, columns: readonly string[]): RowTest {
  if (text.length > MAX_CHARS)
    throw new BridgeError('E_BAD_ATTRIBUTE', `{assign_csv_table} filter= is longer than ${MAX_CHARS} characters`);
  const tokens = tokenize(text);
  let pos = 0;
  let conditions = 0;
  const peek = (): Token | undefined => tokens[pos];
  const end = (): number => (tokens[pos] ? tokens[pos]!.at : text.length);

  /** `next (KEYWORD next)*`: one test for the whole run, `every` for AND, `some` for OR. */
  const chain =
    (keyword: 'and' | 'or', next: (depth: number) => RowTest) =>
    (depth: number): RowTest => {
      const parts = [next(depth)];
      while (peek()?.kind === keyword) {
        pos++;
        parts.push(next(depth));
      }
      if (parts.length === 1) return parts[0]!;
      return keyword === 'and' ? (row) => parts.every((p) => p(row)) : (row) => parts.some((p) => p(row));
    };
  const and = chain('and', (depth) => operand(depth));
  const or = chain('or', and);
  const operand = (depth: number): RowTest => {
    const t = peek();
    if (t?.kind === 'open') {
      if (depth >= MAX_DEPTH) fail(t.at, `parentheses nest deeper than ${MAX_DEPTH}`);
      pos++;
      const inner = or(depth + 1);
      if (peek()?.kind !== 'close') fail(end(), 'expected ")"');
      pos++;
      return inner;
    }
    return condition();
  };
  const condition = (): RowTest => {
    const name = peek();
    if (name?.kind !== 'name') fail(end(), 'expected a column name');
    if (++conditions > MAX_CONDITIONS) fail(name.at, `more than ${MAX_CONDITIONS} conditions`);
    if (!allowed.has(name.text)) fail(name.at, `the column "${name.text}" is not in allow_list`);
    const index = columns.indexOf(name.text);
    if (index < 0) fail(name.at, `the table has no column "${name.text}"`);
    pos++;
    const op = peek();
    if (op?.kind !== 'eq' && op?.kind !== 'ne') fail(end(), 'expected =, != or <>');
    pos++;
    const lit = peek();
    if (lit?.kind !== 'literal') fail(end(), 'expected a quoted string or a number');
    pos++;
    const want = lit.text;
    return op.kind === 'eq' ? (row) => (row[index] ?? '') === want : (row) => (row[index] ?? '') !== want;
  };

  const test = or(0);
  if (pos < tokens.length) fail(tokens[pos]!.at, `unexpected "${tokens[pos]!.text}"`);
  return test;
}
