import { defineFunction } from '../types.js';
import { toStr } from '../../value/convert.js';
import { byteLength, byteSubstr } from '../../value/bytes.js';
import { jsonEncode } from '../../php/json/encode.js';
import { JSON_UNESCAPED_SLASHES, JSON_UNESCAPED_UNICODE } from '../../php/json/flags.js';
import { PhpArray, PhpObject, type Value } from '../../value/value.js';

const LOG_LIMIT_BYTES = 1024;
const OVER_LIMIT_SUFFIX = '...Over 1kb data.';

/**
 * One message as the platform logs it: arrays and objects as JSON, anything else as its
 * string. Over 1 KB it is cut to its first 1024 BYTES, like PHP's substr(), so a multibyte
 * character on the boundary is cut too (its leading bytes stay), and the suffix is added.
 */
export function logText(v: Value): string {
  let s: string;
  if (v instanceof PhpArray || v instanceof PhpObject) {
    const json = jsonEncode(v, JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_SLASHES);
    s = json === false ? '' : json;
  } else {
    s = toStr(v);
  }
  return byteLength(s) > LOG_LIMIT_BYTES ? byteSubstr(s, 0, LOG_LIMIT_BYTES) + OVER_LIMIT_SUFFIX : s;
}

const MESSAGES = ['msg1', 'msg2', 'msg3', 'msg4'] as const;

export default defineFunction({
  kind: 'function',
  name: 'logger',
  summary:
    'Writes msg1..msg4 to the info log, one line per given message in that order (a missing or null message is skipped). Arrays and objects are logged as JSON (unescaped Unicode and slashes). A message over 1024 bytes is cut to 1024 bytes and gets "...Over 1kb data.". Prints nothing.',
  attrs: {
    msg1: { type: 'mixed' },
    msg2: { type: 'mixed' },
    msg3: { type: 'mixed' },
    msg4: { type: 'mixed' },
  },
  examples: [
    { template: "{logger msg1='start' msg2=$data}done", vars: { data: { id: 1, path: '/a/b' } }, output: 'done' },
  ],
  run(attrs, ctx) {
    for (const name of MESSAGES) {
      const v = attrs[name];
      if (v === undefined || v === null) continue;
      ctx.log('info', logText(v));
    }
  },
});
