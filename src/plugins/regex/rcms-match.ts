import { defineFunction } from '../types.js';
import type { Value } from '../../value/value.js';
import { toStr } from '../../value/convert.js';
import { type MatchResult, pregMatch } from '../../php/pcre/preg.js';

/** What rcms_match and rcms_match_all store: the matches, 0 without a match, false on error. */
export function matchOutcome(r: MatchResult): Value {
  if (r.result === false) return false;
  if (r.result === 0) return 0;
  return r.matches;
}

export function rcmsMatch(attrs: Record<string, Value>, warn: (m: string) => void = () => {}): Value {
  return matchOutcome(pregMatch(attrs.pattern ?? '', attrs.subject ?? '', attrs.flags ?? 0, attrs.offset ?? 0, warn));
}

export default defineFunction({
  kind: 'function',
  name: 'rcms_match',
  summary:
    'preg_match: stores the matches in var (with flags 256 each one is [text, byte offset]; 512 leaves unmatched groups null), 0 when nothing matches, false on error.',
  attrs: {
    var: { type: 'varname', required: true },
    pattern: { type: 'string', default: '' },
    subject: { type: 'string', default: '' },
    flags: { type: 'int', default: 0, doc: '256 PREG_OFFSET_CAPTURE, 512 PREG_UNMATCHED_AS_NULL' },
    offset: { type: 'int', default: 0, doc: 'byte offset to start from (negative: from the end)' },
  },
  examples: [
    {
      template: "{rcms_match var=m pattern='/(\\d+)-(\\d+)/' subject='tel 03-1234'}{$m.1}/{$m.2}",
      output: '03/1234',
    },
    { template: "{rcms_match var=m pattern='/x/' subject='abc'}{$m}", output: '0' },
  ],
  run(attrs, ctx) {
    ctx.assign(
      toStr(attrs.var),
      rcmsMatch(attrs, (m) => ctx.warn(m)),
    );
  },
});
