/** The parser's output (grammar/template.peggy). Every node has source offsets. */

export interface Span {
  start: number;
  end: number;
}

// ---- expressions
export interface NumberLit extends Span {
  type: 'Number';
  raw: string;
}
export interface StringLit extends Span {
  type: 'String';
  value: string;
}
export interface BoolLit extends Span {
  type: 'Bool';
  value: boolean;
}
export interface NullLit extends Span {
  type: 'Null';
}
/** A double-quoted or unquoted string with embedded variables. */
export interface Interp extends Span {
  type: 'Interp';
  parts: (string | Expr)[];
}
export interface Var extends Span {
  type: 'Var';
  name: string;
  path: Access[];
}
export interface Binary extends Span {
  type: 'Binary';
  op: string;
  left: Expr;
  right: Expr;
}
export interface Unary extends Span {
  type: 'Unary';
  op: string;
  arg: Expr;
}
export interface Group extends Span {
  type: 'Group';
  expr: Expr;
}
export interface Call extends Span {
  type: 'Call';
  name: string;
  args: Expr[];
}
export interface Is extends Span {
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
export interface Modified extends Span {
  type: 'Modified';
  base: Expr;
  modifiers: Modifier[];
}

export type Expr =
  NumberLit | StringLit | BoolLit | NullLit | Interp | Var | Binary | Unary | Group | Call | Is | Modified;

export interface Key extends Span {
  type: 'Key';
  key: Expr;
}
export interface Prop extends Span {
  type: 'Prop';
  name: string;
}
/** `$a[name]`: the current index of the {section} called `name` (or its property `prop`). */
export interface SectionIndex extends Span {
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
export interface Comment extends Span {
  type: 'Comment';
}
export interface Literal extends Span {
  type: 'Literal';
  value: string;
}
/** A {php}...{/php} block, refused: the span covers the whole block. */
export interface Php extends Span {
  type: 'Php';
}
export interface Output extends Span {
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
}
export interface If extends Span {
  type: 'If';
  cond: Expr;
}
export interface ElseIf extends Span {
  type: 'ElseIf';
  cond: Expr;
}
export interface Else extends Span {
  type: 'Else';
  ignored: string;
}

export type FlatNode = Text | Comment | Literal | Php | Output | Tag | Close | If | ElseIf | Else;
