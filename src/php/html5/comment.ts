/**
 * WHATWG HTML's comment states (§13.2.5.43-52), run from just after `<!--`: where the
 * comment ends and which parse errors it raises.
 */

export interface CommentScan {
  /** Offset just after the comment (the input's length when it runs to the end). */
  end: number;
  errors: { at: number; code: string; message: string }[];
}

/** The states, named after the spec's (comment start, comment start dash, comment, ...). */
const St = {
  Start: 0,
  StartDash: 1,
  Body: 2,
  Lt: 3,
  LtBang: 4,
  LtBangDash: 5,
  LtBangDashDash: 6,
  EndDash: 7,
  End: 8,
  EndBang: 9,
} as const;
type St = (typeof St)[keyof typeof St];

export function scanComment(s: string, from: number, open: number): CommentScan {
  const errors: CommentScan['errors'] = [];
  const eof = (): CommentScan => {
    errors.push({ at: open, code: 'eof-in-comment', message: 'comment not closed with -->' });
    return { end: s.length, errors };
  };
  const abrupt = (at: number): CommentScan => {
    errors.push({
      at: open,
      code: 'abrupt-closing-of-empty-comment',
      message: 'empty comment closed by <!--> or <!--->',
    });
    return { end: at + 1, errors };
  };
  let st: St = St.Start;
  let i = from;
  for (;;) {
    const c = s[i];
    switch (st) {
      case St.Start:
        if (c === '-') st = St.StartDash;
        else if (c === '>') return abrupt(i);
        else {
          st = St.Body;
          continue;
        }
        break;
      case St.StartDash:
        if (c === '-') st = St.End;
        else if (c === '>') return abrupt(i);
        else if (c === undefined) return eof();
        else {
          st = St.Body;
          continue;
        }
        break;
      case St.Body:
        if (c === '<') st = St.Lt;
        else if (c === '-') st = St.EndDash;
        else if (c === undefined) return eof();
        break;
      case St.Lt:
        if (c === '!') st = St.LtBang;
        else if (c !== '<') {
          st = St.Body;
          continue;
        }
        break;
      case St.LtBang:
        if (c === '-') st = St.LtBangDash;
        else {
          st = St.Body;
          continue;
        }
        break;
      case St.LtBangDash:
        if (c === '-') st = St.LtBangDashDash;
        else {
          st = St.EndDash;
          continue;
        }
        break;
      case St.LtBangDashDash:
        if (c !== '>' && c !== undefined)
          errors.push({ at: i - 4, code: 'nested-comment', message: '<!-- inside a comment' });
        st = St.End;
        continue;
      case St.EndDash:
        if (c === '-') st = St.End;
        else if (c === undefined) return eof();
        else {
          st = St.Body;
          continue;
        }
        break;
      case St.End:
        if (c === '>') return { end: i + 1, errors };
        if (c === '!') st = St.EndBang;
        else if (c === undefined) return eof();
        else if (c !== '-') {
          st = St.Body;
          continue;
        }
        break;
      case St.EndBang:
        if (c === '-') st = St.EndDash;
        else if (c === '>') {
          errors.push({
            at: i - 3,
            code: 'incorrectly-closed-comment',
            message: 'comment closed by --!> instead of -->',
          });
          return { end: i + 1, errors };
        } else if (c === undefined) return eof();
        else {
          st = St.Body;
          continue;
        }
        break;
    }
    i++;
  }
}
