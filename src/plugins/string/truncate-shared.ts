/** What truncate (bytes) and the platform's mb_truncate (characters) share: one signature, one algorithm. */
import type { ModifierParam, ModifierPlugin } from '../types.js';
import { strArg } from '../../php/args.js';
import { type Measure, truncateWith } from '../../php/string/truncate.js';

export const truncateParams: readonly ModifierParam[] = [
  { name: 'length', type: 'int', default: 80 },
  { name: 'etc', type: 'string', default: '...' },
  { name: 'break_words', type: 'bool', default: false },
  { name: 'middle', type: 'bool', default: false },
];

/**
 * Smarty's truncate counting with `m`; `lengthFn` is the PHP function the plugin's body first
 * calls on the strings (strlen or mb_strlen), whose TypeError an array argument raises.
 */
export function truncateRun(m: Measure, lengthFn: string): ModifierPlugin['run'] {
  return (input, [length, etc, breakWords, middle]) => {
    const s = strArg(input, lengthFn, 1);
    const e = strArg(etc, lengthFn, 1);
    return truncateWith(m, s, length, e, breakWords, middle) ?? input;
  };
}
