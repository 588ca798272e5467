import { describe, expect, it } from 'vitest';
import { toTagged, type Tagged } from '../../support/php-oracle.js';
import { phpGolden } from '../../support/php-golden.js';
import { PhpTypeError } from '../../../src/value/convert.js';
import { cases } from './cases.js';
import { normalizeKey } from '../../../src/value/php-array.js';

/** get_object_vars() (used by the oracle) turns "1" property names into int keys: do the same. */
function norm(t: Tagged): Tagged {
  if (t === null || typeof t !== 'object') return t;
  if ('arr' in t) return { arr: t.arr.map(([k, v]) => [k, norm(v)]) };
  if ('obj' in t) return { obj: t.obj.map(([k, v]) => [normalizeKey(k) as string, norm(v)]) };
  return t;
}

// PHP's answers, committed in test/fixtures/php/plugins/array/php-compare.json.
const results = phpGolden(
  'plugins/array/php-compare',
  cases.map((c) => c.php),
  { labels: cases.map((c) => c.name) },
);

describe('array/json functions against php', () => {
  it('has a large table', () => {
    expect(cases.length).toBeGreaterThanOrEqual(250);
  });
  it.each(cases.map((c, i) => [c.name, i] as const))('%s', (_name, i) => {
    const r = results[i];
    if (!r.ok) {
      // PHP threw (TypeError, ValueError): we throw PhpTypeError, which the runtime reports.
      expect(() => cases[i].ours(), r.error).toThrow(PhpTypeError);
      return;
    }
    expect(norm(toTagged(cases[i].ours()))).toEqual(norm(r.value!));
  });
});
