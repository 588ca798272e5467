/**
 * The examples of the format and date modifiers: the documented output must be what our
 * modifiers produce and what PHP produces (the PHP function itself, or for string_format,
 * date_format and pg_dateformat the PHP code they stand for), read with the small template
 * reader of test/support/mini-template.ts.
 */
import { describe, expect, it } from 'vitest';
import { fromJS, type Value } from '../../../src/value/value.js';
import type { ModifierContext, ModifierPlugin } from '../../../src/plugins/types.js';
import { plugins as formatPlugins } from '../../../src/plugins/format/index.js';
import { plugins as datePlugins } from '../../../src/plugins/date/index.js';
import { fromTagged } from '../../support/php-oracle.js';
import { phpGoldenLookup } from '../../support/php-golden.js';
import { render } from '../../support/mini-template.js';
import { arg } from '../../support/oracle-args.js';
import { testModifierContext } from '../../support/plugin-context.js';
import { runBothWays } from '../../support/prepared.js';

const NOW = 1700000000;
const TZ = 'Asia/Tokyo';
const ctx: ModifierContext = testModifierContext({ timezone: TZ, now: NOW });
const modifiers = new Map<string, ModifierPlugin>();
// rcms_file_size is the platform's own (no PHP function to compare with); the engine-wide examples test runs its example.
for (const p of [...formatPlugins, ...datePlugins])
  if (p.kind === 'modifier' && p.name !== 'rcms_file_size') modifiers.set(p.name, p);

function ours(name: string, input: Value, args: Value[]): Value {
  const p = modifiers.get(name)!;
  const full = p.params.map((param, k) => (k < args.length ? args[k] : (param.default ?? null)));
  return runBothWays(p, input, args.length > p.params.length ? args : full, ctx, () =>
    testModifierContext({ timezone: TZ, now: NOW }),
  );
}

const MAKE_TIMESTAMP = `function mts($string) {
  if (empty($string)) return ${NOW};
  if (preg_match('/^\\d{14}$/', $string)) return mktime(substr($string, 8, 2), substr($string, 10, 2), substr($string, 12, 2), substr($string, 4, 2), substr($string, 6, 2), substr($string, 0, 4));
  if (is_numeric($string)) return (int)$string;
  $t = strtotime($string, ${NOW}); return $t === false ? ${NOW} : $t; }`;

/** The PHP code each platform/Smarty modifier stands for. */
const PHP_BODY: Record<string, (a: string[]) => string> = {
  string_format: (a) => `return sprintf(${a[1]}, ${a[0]});`,
  date_format: (
    a,
  ) => `if (!function_exists('mts')) { ${MAKE_TIMESTAMP} } $f = ${a[1] ?? "'Y-m-d'"}; $d = ${a[2] ?? "''"};
    if (${a[0]} != '') $t = mts(${a[0]}); elseif ($d != '') $t = mts($d); else return null;
    return strpos($f, '%') !== false ? strftime($f, $t) : date($f, $t);`,
  pg_dateformat: (a) => `return date(${a[1] ?? "'Y/m/d(D) H:i'"}, strtotime(${a[0]}, ${NOW}));`,
  pg_dateformat2: (a) => `return date(${a[1] ?? "'Y/m/d(D) H:i'"}, strtotime(${a[0]}, ${NOW}));`,
};

// PHP's answers, committed in test/fixtures/php/plugins/format/examples.json.
const oracle = phpGoldenLookup('plugins/format/examples', {
  note: 'string_format, date_format and pg_dateformat(2) run the PHP code they stand for (Smarty 2 bodies, PHP_BODY in test/plugins/format/examples.test.ts)',
});

function phpApply(name: string, input: Value, args: Value[]): Value {
  const body = PHP_BODY[name];
  const call = body
    ? {
        fn: '__eval',
        args: [
          `$a = json_decode(${JSON.stringify(JSON.stringify([input, ...args].map(arg)))}, true); ` +
            `$a = array_map(fn($x) => is_array($x) && isset($x['$float']) ? (float)$x['$float'] : $x, $a); ` +
            body([input, ...args].map((_, k) => `$a[${k}]`)),
        ],
        tz: TZ,
      }
    : { fn: name, args: [input, ...args].map(arg), tz: TZ };
  const r = oracle(call);
  if (!r.ok) throw new Error(r.error);
  return fromTagged(r.value!);
}

describe('format and date modifier examples are true', () => {
  for (const p of modifiers.values()) {
    p.examples.forEach((ex, i) => {
      const vars = Object.fromEntries(Object.entries(ex.vars ?? {}).map(([k, v]) => [k, fromJS(v)]));
      it(`${p.name} #${i + 1}: ${ex.template}`, () => {
        expect(render(ex.template, vars, ours, (n) => modifiers.has(n))).toBe(ex.output);
        expect(render(ex.template, vars, phpApply, (n) => modifiers.has(n))).toBe(ex.output);
      });
    });
  }
});
