import { defineFunction } from '../types.js';
import type { Value } from '../../value/value.js';
import { toStr } from '../../value/convert.js';
import { pregMatchAll } from '../../php/pcre/preg.js';
import { matchOutcome } from './rcms-match.js';

export function rcmsMatchAll(attrs: Record<string, Value>, warn: (m: string) => void = () => {}): Value {
  return matchOutcome(
    pregMatchAll(attrs.pattern ?? '', attrs.subject ?? '', attrs.flags ?? 0, attrs.offset ?? 0, warn),
  );
}

export default defineFunction({
  kind: 'function',
  name: 'rcms_match_all',
  summary:
    'preg_match_all: stores all matches in var (flags 1 pattern order, 2 set order, 256 offsets, 512 unmatched as null), 0 when nothing matches, false on error.',
  attrs: {
    var: { type: 'varname', required: true },
    pattern: { type: 'string', default: '' },
    subject: { type: 'string', default: '' },
    flags: { type: 'int', default: 1 },
    offset: { type: 'int', default: 0 },
  },
  examples: [
    {
      template: "{rcms_match_all var=m pattern='/(\\w)=(\\d)/' subject='a=1 b=2'}{$m.1.0}{$m.2.0}{$m.1.1}{$m.2.1}",
      output: 'a1b2',
    },
    {
      template:
        "{rcms_match_all var=m pattern='|<[^>]+>(.*)</[^>]+>|U' subject='<b>example: </b><div align=left>this is a test</div>' flags=2}{$m.1.1}",
      output: 'this is a test',
    },
  ],
  run(attrs, ctx) {
    ctx.assign(
      toStr(attrs.var),
      rcmsMatchAll(attrs, (m) => ctx.warn(m)),
    );
  },
});
