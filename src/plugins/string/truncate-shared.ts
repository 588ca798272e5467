/** What truncate (bytes) and the platform's mb_truncate (characters) share: one signature, one algorithm. */
import type { ModifierParam, ModifierPlugin } from '../types.js';
import type { Value } from '../../value/value.js';
import { strArg } from '../../php/args.js';
import { type Measure, truncateFixed, truncateWith } from '../../php/string/truncate.js';

export const truncateParams: readonly ModifierParam[] = [
  { name: 'length', type: 'int', default: 80 },
  { name: 'etc', type: 'string', default: '...' },
  { name: 'break_words', type: 'bool', default: false },
  { name: 'middle', type: 'bool', default: false },
];

/**
 * Smarty's truncate counting with `m`; `lengthFn` is the PHP function the plugin's body first
 * calls on the strings (strlen or mb_strlen), whose TypeError an array argument raises.
 * `prepare` serves `|truncate:80:"...":true` written with literals: a string input goes straight
 * to the cut with the arguments' checks done once.
 */
export function truncateModifier(m: Measure, lengthFn: string): Pick<ModifierPlugin, 'run' | 'prepare'> {
  const run: ModifierPlugin['run'] = (input, [length, etc, breakWords, middle]) => {
    const s = strArg(input, lengthFn, 1);
    const e = strArg(etc, lengthFn, 1);
    return truncateWith(m, s, length, e, breakWords, middle) ?? input;
  };
  const prepare: ModifierPlugin['prepare'] = (args) => {
    const [length, etc, breakWords, middle] = args;
    if (typeof etc !== 'string') return undefined;
    const cut = truncateFixed(m, length, etc, breakWords, middle);
    const own: Value[] = args.slice();
    return (input, ctx) => (typeof input === 'string' ? (cut(input) ?? input) : run(input, own, ctx));
  };
  return { run, prepare };
}
