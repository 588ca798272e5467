/** The parsed form of a PCRE pattern body, before translation to JavaScript. */

/** A named character class that cannot always be spelled as ranges (\d \w \s \h \v, POSIX, \p). */
export interface ClassRef {
  /** d w s h v, a POSIX name (alpha, digit...), or `p:<property>` for \p{...}. */
  name: string;
  neg: boolean;
}

export interface CharSet {
  neg: boolean;
  /** Inclusive code point ranges (bytes in non-UTF mode). */
  ranges: [number, number][];
  refs: ClassRef[];
}

/** `G` is \G: true where the match attempt started (the start offset of this search). */
type AssertKind = 'start' | 'end' | 'A' | 'z' | 'Z' | 'b' | 'B' | 'G';

type GroupKind = 'capture' | 'group' | 'atomic' | 'ahead' | 'notAhead' | 'behind' | 'notBehind';

export type Node =
  | { type: 'seq'; items: Node[] }
  | { type: 'alt'; branches: Node[] }
  | { type: 'char'; cp: number; ci: boolean }
  | { type: 'set'; set: CharSet; ci: boolean }
  /** `.` (dotAll per the s flag at that point) and `\N` (never dotAll). */
  | { type: 'any'; dotAll: boolean }
  /** \R: any newline sequence, \r\n taken atomically. */
  | { type: 'newline' }
  /** `^`/`$` carry the m and D flags in force where they were written. */
  | { type: 'assert'; kind: AssertKind; multiline: boolean; dollarEndOnly: boolean }
  /** `reset`: a branch reset group `(?|...)`, whose alternatives number their groups from the same start. */
  | { type: 'group'; kind: GroupKind; body: Node; index: number; name?: string; offset: number; reset?: boolean }
  | { type: 'repeat'; body: Node; min: number; max: number; greedy: boolean; possessive: boolean }
  | { type: 'backref'; index: number; ci: boolean; offset: number }
  /** \K: the reported match starts here. */
  | { type: 'keep'; offset: number };

export const INFINITE = Number.POSITIVE_INFINITY;
