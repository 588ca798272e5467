/**
 * The edge grid (grid-cases.ts) against PHP 8.2: each call made the way a template makes it,
 * `{$a.0|@fn:$a.1:...}`, its value checked exactly (json_encode with JSON_PRESERVE_ZERO_FRACTION
 * keeps int, float, string, bool and null apart, and PHP's key order) and its printed form byte
 * for byte, as the golden corpus records them (test/conformance/golden-php.test.ts), and again
 * with the arguments written as literals (the prepared path). PHP's
 * answers are committed in test/fixtures/php/plugins/php/grid.json.
 */
import { describe, expect, it } from 'vitest';
import { phpGolden } from '../../support/php-golden.js';
import { testEngine } from '../../support/engine.js';
import { jsonValue } from '../../support/json-value.js';
import { toArg, toTagged, type OracleResult } from '../../support/php-oracle.js';
import { PhpArray, PhpFloat, type Value } from '../../../src/value/value.js';
import { toBytes } from '../../../src/value/bytes.js';
import { GRID, HELPER_GRID, type GridCase } from './grid-cases.js';
import { pregMatch, pregSplit } from '../../../src/php/pcre/preg.js';
import { htmlspecialchars, type Charset } from '../../../src/php/string/html.js';
import { phpHash, phpHashHmac } from '../../../src/php/hash/hash.js';
import { arrayIntersect } from '../../../src/php/array/set-ops.js';
import { PhpTypeError, toStr, toBool, toInt } from '../../../src/value/convert.js';
import { phpEcho, taggedJsonSafe } from './grid-support.js';

const TZ = 'Asia/Tokyo';
const SEP = '<<grid>>';
/** JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_SLASHES | JSON_PRESERVE_ZERO_FRACTION */
const JSON_FLAGS = 64 | 256 | 1024;

/** A value as the oracle takes it; -0.0 travels as text, JSON numbers have no negative zero. */
function oracleArg(v: Value): unknown {
  if (v instanceof PhpFloat && Object.is(v.value, -0)) return { $float: '-0.0' };
  if (v instanceof PhpArray) return { $assoc: v.entries().map(([k, x]) => [k, oracleArg(x)]) };
  return toArg(v);
}

const label = (c: GridCase): string => `${c.fn}(${c.args.join(', ')})`;

const oracleCall = (c: GridCase) => ({ fn: c.fn, args: c.args.map((a) => oracleArg(jsonValue(a))), tz: TZ });
const results = phpGolden('plugins/php/grid', GRID.map(oracleCall), { labels: GRID.map(label) });
const helperResults = phpGolden('plugins/php/grid-helpers', HELPER_GRID.map(oracleCall), {
  labels: HELPER_GRID.map(label),
});

/** What one template call printed: its json_encode and its echo. */
interface Printed {
  json: string;
  echo: string;
}

/** Renders every call of one function and arity in one template, in grid order. */
async function renderGroup(engine: ReturnType<typeof testEngine>, fn: string, cases: GridCase[]): Promise<Printed[]> {
  const n = cases[0].args.length;
  const call = `$a.0|@${fn}${Array.from({ length: n - 1 }, (_, i) => `:$a.${i + 1}`).join('')}`;
  const tpl =
    `{foreach from=$cases item=a}{assign var=r value=${call}}` +
    `{$r|@json_encode:${JSON_FLAGS}}${SEP}{if !is_array($r)}{$r}{/if}${SEP}{/foreach}`;
  const vars = `{"cases":[${cases.map((c) => `[${c.args.join(',')}]`).join(',')}]}`;
  const { output } = await engine.render(tpl, { name: `grid-${fn}.tpl`, vars });
  const parts = output.split(SEP);
  return cases.map((_, i) => ({ json: parts[2 * i], echo: parts[2 * i + 1] }));
}

/**
 * An argument as a template literal where Smarty 2 has one (quoted strings, plain ints and
 * decimals, true/false/null), else null: the runtime prepares a modifier once for literal
 * arguments (`prepare`), a path the variables do not take.
 */
function literal(text: string): string | null {
  if (/^(true|false|null|-?(0|[1-9][0-9]{0,14})(\.[0-9]+)?)$/.test(text) && text !== '-0.0') return text;
  const v = jsonValue(text);
  if (typeof v !== 'string' || /[\x00-\x1f{}]/.test(v)) return null;
  return `'${v.replace(/[\\']/g, (c) => '\\' + c)}'`;
}

/** The same calls, each argument after the value written as a literal where it can be. */
async function renderLiterals(
  engine: ReturnType<typeof testEngine>,
  fn: string,
  cases: GridCase[],
): Promise<Printed[]> {
  const tpl = cases
    .map((c, i) => {
      const args = c.args.slice(1).map((a, k) => `:${literal(a) ?? `$cases.${i}.${k + 1}`}`);
      return (
        `{assign var=r value=$cases.${i}.0|@${fn}${args.join('')}}` +
        `{$r|@json_encode:${JSON_FLAGS}}${SEP}{if !is_array($r)}{$r}{/if}${SEP}`
      );
    })
    .join('');
  const vars = `{"cases":[${cases.map((c) => `[${c.args.join(',')}]`).join(',')}]}`;
  const { output } = await engine.render(tpl, { name: `grid-literal-${fn}.tpl`, vars });
  const parts = output.split(SEP);
  return cases.map((_, i) => ({ json: parts[2 * i], echo: parts[2 * i + 1] }));
}

/** The value the template printed as json_encode, in the oracle's terms. */
function printedValue(json: string): unknown {
  return json === '' ? 'json_encode failed' : toTagged(jsonValue(json) as Value);
}

describe('PHP functions on the edge grid match PHP 8.2', () => {
  const engine = testEngine({ timezone: TZ });
  const printed = new Map<GridCase, Printed>();
  const groups = new Map<string, GridCase[]>();
  for (const c of GRID) {
    const key = `${c.fn}/${c.args.length}`;
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }

  it('covers 40+ functions with 1,500+ calls PHP answers', () => {
    expect(new Set(GRID.map((c) => c.fn)).size).toBeGreaterThanOrEqual(40);
    expect(results.filter((r) => r.ok).length).toBeGreaterThanOrEqual(1500);
  });

  it('renders every call', async () => {
    for (const cases of groups.values()) {
      const out = await renderGroup(engine, cases[0].fn, cases);
      cases.forEach((c, i) => printed.set(c, out[i]));
    }
    expect(printed.size).toBe(GRID.length);
  }, 120_000);

  it('prints the same with the arguments written as literals', async () => {
    const differ: string[] = [];
    for (const cases of groups.values()) {
      if (cases[0].args.length < 2) continue;
      const out = await renderLiterals(engine, cases[0].fn, cases);
      cases.forEach((c, i) => {
        if (JSON.stringify(out[i]) !== JSON.stringify(printed.get(c))) differ.push(label(c));
      });
    }
    expect(differ).toEqual([]);
  }, 120_000);

  GRID.forEach((c, i) => {
    it(label(c), () => {
      const r: OracleResult = results[i];
      const got = printed.get(c)!;
      if (!r.ok) {
        // PHP throws: the dialect gives null and a warning (docs/decisions.md D14).
        expect(got, r.error).toEqual({ json: 'null', echo: '' });
        return;
      }
      const value = r.value!;
      if (c.fn === 'preg_match') {
        // $matches, as rcms_match fills it from the same helper.
        const [pattern, subject] = c.args.map(jsonValue);
        expect(toTagged(pregMatch(pattern, subject).matches)).toEqual(r.out);
      }
      expect(printedValue(got.json)).toEqual(taggedJsonSafe(value) ? value : 'json_encode failed');
      if (!(value && typeof value === 'object' && 'arr' in value))
        expect(Buffer.from(toBytes(got.echo)).toString('latin1')).toBe(phpEcho(value).toString('latin1'));
    });
  });
});

/** The helpers plugins call for the golden corpus' functions templates cannot call. */
const HELPERS: Record<string, (args: Value[]) => Value> = {
  hash: ([algo, data]) => phpHash(toStr(algo), toStr(data)),
  hash_hmac: ([algo, data, key]) => phpHashHmac(toStr(algo), toStr(data), toStr(key)),
  preg_split: ([pattern, subject, limit, flags]) => pregSplit(pattern, subject, limit, flags),
  htmlspecialchars: ([s, flags, charset, double]) =>
    htmlspecialchars(toStr(s), toInt(flags), toStr(charset).toLowerCase() as Charset, toBool(double)),
  array_intersect: ([first, ...others]) => arrayIntersect(first as PhpArray, others as PhpArray[]),
  preg_match: ([pattern, subject, flags, offset]) => pregMatch(pattern, subject, flags, offset).result,
};

describe('the helpers plugins are built on match PHP 8.2 on the edge grid', () => {
  HELPER_GRID.forEach((c, i) => {
    it(label(c), () => {
      const r = helperResults[i];
      const args = c.args.map(jsonValue);
      if (!r.ok) {
        // PHP throws: so does the helper, and the plugin reports it (D14).
        expect(() => HELPERS[c.fn](args), r.error).toThrow(PhpTypeError);
        return;
      }
      expect(toTagged(HELPERS[c.fn](args))).toEqual(r.value);
      if (c.fn === 'preg_match')
        expect(toTagged(pregMatch(...(args as [Value, Value, Value, Value])).matches)).toEqual(r.out);
    });
  });
});
