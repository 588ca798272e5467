/** The parser's output (grammar/template.peggy). Every node has source offsets. */

export interface Span {
  start: number;
  end: number;
}

// ---- expressions
interface NumberLit extends Span {
  type: 'Number';
  /** Decimal digits: a leading-0 integer has been read as octal, as PHP does (`010` is "8"). */
  raw: string;
  /** A leading-0 integer with an 8 or 9 (`08`): PHP refuses to compile it. */
  badOctal?: true;
}
interface StringLit extends Span {
  type: 'String';
  value: string;
}
interface BoolLit extends Span {
  type: 'Bool';
  value: boolean;
}
interface NullLit extends Span {
  type: 'Null';
}
/** A double-quoted or unquoted string with embedded variables. */
interface Interp extends Span {
  type: 'Interp';
  parts: (string | Expr)[];
}
export interface Var extends Span {
  type: 'Var';
  name: string;
  path: Access[];
}
interface Binary extends Span {
  type: 'Binary';
  op: string;
  left: Expr;
  right: Expr;
}
interface Unary extends Span {
  type: 'Unary';
  op: string;
  arg: Expr;
}
interface Group extends Span {
  type: 'Group';
  expr: Expr;
}
interface Call extends Span {
  type: 'Call';
  name: string;
  args: Expr[];
}
interface Is extends Span {
  type: 'Is';
  arg: Expr;
  negate: boolean;
  kind: 'even' | 'odd' | 'div';
  by: Expr | null;
}
export interface Modifier extends Span {
  type: 'Modifier';
  name: string;
  all: boolean;
  args: Expr[];
}
interface Modified extends Span {
  type: 'Modified';
  base: Expr;
  modifiers: Modifier[];
}

export type Expr =
  NumberLit | StringLit | BoolLit | NullLit | Interp | Var | Binary | Unary | Group | Call | Is | Modified;

interface Key extends Span {
  type: 'Key';
  key: Expr;
}
interface Prop extends Span {
  type: 'Prop';
  name: string;
}
/** `$a[name]`: the current index of the {section} called `name` (or its property `prop`). */
interface SectionIndex extends Span {
  type: 'SectionIndex';
  section: string;
  prop: string | null;
}
export type Access = Key | Prop | SectionIndex;

// ---- template nodes
export interface Text extends Span {
  type: 'Text';
  value: string;
}
interface Comment extends Span {
  type: 'Comment';
}
interface Literal extends Span {
  type: 'Literal';
  value: string;
}
/** A {php}...{/php} block, refused: the span covers the whole block. */
interface Php extends Span {
  type: 'Php';
}
interface Output extends Span {
  type: 'Output';
  value: Expr;
  ignored: string;
}
export interface Attr extends Span {
  type: 'Attr';
  name: string;
  value: Expr;
}
/**
 * `recovered`: a tag the parser could not read, kept by its name only so that the tags around it
 * still pair up (parse.ts); it compiles to nothing and is checked no further.
 */
export interface Tag extends Span {
  type: 'Tag';
  name: string;
  modifiers: Modifier[];
  attrs: Attr[];
  recovered?: true;
}
export interface Close extends Span {
  type: 'Close';
  name: string;
  /** Text after the name, which Smarty 2 ignores (`{/foreach name=x}`). */
  ignored: string;
}
interface If extends Span {
  type: 'If';
  cond: Expr;
}
interface ElseIf extends Span {
  type: 'ElseIf';
  cond: Expr;
}
interface Else extends Span {
  type: 'Else';
  ignored: string;
}

export type FlatNode = Text | Comment | Literal | Php | Output | Tag | Close | If | ElseIf | Else;
