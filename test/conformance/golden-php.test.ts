/**
 * The golden corpus' PHP builtin cases (evaluated by PHP 8.2). Functions templates may call
 * run through the template path, `{$args.0|@fn:$args.1:...}`; the others (hash, preg_split...)
 * are what plugins are built on and are checked against the PHP helpers directly.
 */
import { describe, expect, it } from 'vitest';
import { loadGolden, rawMember } from '../support/golden.js';
import { testEngine } from '../support/engine.js';
import { jsonValue } from '../support/json-value.js';
import { toTagged } from '../support/php-oracle.js';
import type { PhpArray, Value } from '../../src/value/value.js';
import { PhpFloat } from '../../src/value/value.js';
import { pregSplit } from '../../src/php/pcre/preg.js';
import { ENT_DEFAULT, htmlspecialchars } from '../../src/php/string/html.js';
import { ucwords } from '../../src/php/string/case.js';
import { phpHash, phpHashHmac } from '../../src/php/hash/hash.js';
import { arrayIntersect } from '../../src/php/array/set-ops.js';
import { readFileSync } from 'node:fs';
import { goldenPath } from '../support/golden.js';

const lines = readFileSync(goldenPath(), 'utf8').split('\n');
const cases = loadGolden().filter((c) => c.area === 'php');
const engines = new Map<string, ReturnType<typeof testEngine>>();
const engineFor = (tz: string) => {
  if (!engines.has(tz)) engines.set(tz, testEngine({ timezone: tz }));
  return engines.get(tz)!;
};

/** JSON cannot tell 2 from 2.0: compare numbers by value, everything else exactly (key order too). */
function normalize(v: Value): unknown {
  const t = toTagged(v instanceof PhpFloat ? v.value : v) as unknown;
  return JSON.parse(JSON.stringify(t), (_k, x) =>
    x && typeof x === 'object' && 'float' in x
      ? { num: Number(x.float) }
      : x && typeof x === 'object' && 'int' in x
        ? { num: x.int }
        : x,
  );
}

describe('golden PHP builtins', () => {
  it('the corpus has builtin cases', () => expect(cases.length).toBeGreaterThan(30));
  for (const c of cases.filter((x) => x.dialect_modifier)) {
    it(`${c.id} ${c.fn}${c.note ? `: ${c.note.slice(0, 50)}` : ''}`, async () => {
      const line = lines.find((l) => l.includes(`"id":"${c.id}"`))!;
      const args = rawMember(line, 'args')!;
      const n = (JSON.parse(args) as unknown[]).length;
      const call = `$args.0|@${c.fn}${Array.from({ length: n - 1 }, (_, i) => `:$args.${i + 1}`).join('')}`;
      const tpl = `{assign var=r value=${call}}{if is_array($r)}{$r|@json_encode}{else}{$r}{/if}`;
      const { output } = await engineFor(c.tz ?? 'Asia/Tokyo').render(tpl, {
        name: `${c.id}.tpl`,
        vars: `{"args":${args}}`,
      });
      if (c.type === 'array') {
        expect(normalize(jsonValue(output))).toEqual(normalize(jsonValue(rawMember(line, 'expect')!)));
      } else {
        expect(output).toBe(c.echo);
      }
    });
  }
});

/**
 * The builtins templates cannot call as modifiers: each checked through the PHP helper the
 * plugins are built on (preg_split: rcms_* regex plugins; hash/hash_hmac: rcms_hash;
 * array_intersect: assign_array_intersect; htmlspecialchars: escape; ucwords: ucwords).
 */
const HELPERS: Record<string, (args: Value[]) => Value> = {
  preg_split: ([pattern, subject]) => pregSplit(pattern, subject) as Value,
  htmlspecialchars: ([s]) => htmlspecialchars(String(s), ENT_DEFAULT),
  ucwords: ([s]) => ucwords(String(s)),
  hash: ([algo, data]) => phpHash(String(algo), String(data)),
  hash_hmac: ([algo, data, key]) => phpHashHmac(String(algo), String(data), String(key)),
  array_intersect: ([first, ...others]) => arrayIntersect(first as PhpArray, others as PhpArray[]),
};

describe('golden PHP builtins through the helpers plugins use', () => {
  const helperCases = cases.filter((x) => !x.dialect_modifier);
  it('every builtin case is either a template modifier or has a helper here', () => {
    expect(helperCases.map((c) => c.fn).filter((fn) => !HELPERS[fn!])).toEqual([]);
  });
  for (const c of helperCases) {
    it(`${c.id} ${c.fn}`, () => {
      const line = lines.find((l) => l.includes(`"id":"${c.id}"`))!;
      const args = jsonValue(rawMember(line, 'args')!) as PhpArray;
      const got = HELPERS[c.fn!](args.values());
      if (c.type === 'array') expect(normalize(got)).toEqual(normalize(jsonValue(rawMember(line, 'expect')!)));
      else expect(got).toBe(c.echo);
    });
  }
});
