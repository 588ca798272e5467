/**
 * {date} and {strtodate} against PHP's date(format, strtotime(time, now)) in several zones: seeded
 * random cases against live PHP, the fixed default cases against PHP's answers committed in
 * test/fixtures/php/plugins/util/date-defaults.json.
 */
import { describe, expect, it } from 'vitest';
import { callPhp, type OracleResult } from '../../support/php-oracle.js';
import { phpGoldenLookup } from '../../support/php-golden.js';
import datePlugin from '../../../src/plugins/util/date.js';
import strtodate from '../../../src/plugins/util/strtodate.js';
import type { Value } from '../../../src/value/value.js';
import { Gen, TEST_NOW, makeCtx, phpLiteral, run } from './support.js';

const ZONES = ['Asia/Tokyo', 'UTC', 'America/New_York', 'Europe/London'];
const FORMATS = [
  'Y-m-d H:i:s',
  'Y/m/d',
  'D, d M Y',
  'N',
  'l jS F Y g:ia',
  'U',
  'c',
  'W o',
  't L',
  'ymd His T',
  'Y年n月j日 G時',
];
const RELATIVE = [
  'now',
  'today',
  'tomorrow',
  'yesterday',
  'midnight',
  'noon',
  '+1 day',
  '-7 day',
  '+2 weeks',
  '-3 months',
  '+1 year',
  'now +1hour',
  '+90 minutes',
  '-1 week 2 days',
  'next monday',
  'last friday',
  'first day of next month',
  'last day of this month',
  '1 hour ago',
  'garbage text',
];

function timeText(g: Gen): string {
  const ts = g.int(0, 2_000_000_000);
  const d = new Date(ts * 1000);
  const p = (n: number) => String(n).padStart(2, '0');
  switch (g.int(0, 4)) {
    case 0:
      return `${d.getUTCFullYear()}-${p(d.getUTCMonth() + 1)}-${p(d.getUTCDate())} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}`;
    case 1:
      return `${d.getUTCFullYear()}/${p(d.getUTCMonth() + 1)}/${p(d.getUTCDate())}`;
    case 2:
      return `@${ts}`;
    case 3:
      return `${d.getUTCFullYear()}-${p(d.getUTCMonth() + 1)}-${p(d.getUTCDate())} ${g.pick(['+1 day', '-2 months', '+3 weeks'])}`;
    default:
      return g.pick(RELATIVE);
  }
}

interface Case {
  tz: string;
  format: string;
  time: string;
}

const g = new Gen(3);
const cases: Case[] = [];
for (let i = 0; i < 120; i++)
  cases.push({
    tz: ZONES[i % ZONES.length],
    format: g.pick(FORMATS),
    time: i < RELATIVE.length ? RELATIVE[i] : timeText(g),
  });

let phpResults: OracleResult[] | undefined;
const php = () =>
  (phpResults ??= callPhp(
    cases.map((c) => ({
      fn: '__eval',
      tz: c.tz,
      args: [`return date(${phpLiteral(c.format)}, strtotime(${phpLiteral(c.time)}, ${TEST_NOW}));`],
    })),
  ));
const golden = phpGoldenLookup('plugins/util/date-defaults');

describe('{date} against php date(strtotime())', () => {
  it.each(cases.map((c, i) => [i, c.tz, c.time, c.format] as const))('#%i %s %s %s', (i) => {
    const c = cases[i];
    const ctx = makeCtx({ timezone: c.tz });
    run(datePlugin, { var: 'd', time: c.time, format: c.format }, ctx);
    expect({ str: Buffer.from(String(ctx.scope.d)).toString('base64') }).toEqual(php()[i].value);
  });

  it('defaults to now and Y-m-d H:i:s', () => {
    const ctx = makeCtx();
    run(datePlugin, { var: 'd' }, ctx);
    const r = golden({ fn: 'date', args: ['Y-m-d H:i:s', TEST_NOW] });
    expect({ str: Buffer.from(String(ctx.scope.d)).toString('base64') }).toEqual(r.value);
  });

  it('warns about unreadable time text (and formats timestamp 0 like PHP)', () => {
    const ctx = makeCtx();
    run(datePlugin, { var: 'd', time: 'not a date', format: 'Y-m-d H:i' }, ctx);
    const r = golden({ fn: '__eval', args: ["return date('Y-m-d H:i', strtotime('not a date'));"] });
    expect({ str: Buffer.from(String(ctx.scope.d)).toString('base64') }).toEqual(r.value);
    expect(ctx.warnings.length).toBe(1);
  });
});

// strtodate: numbers and numeric strings are timestamps, other text goes through strtotime.
const sg = new Gen(5);
const stamps: { tz: string; format: string; ts: Value }[] = [];
for (let i = 0; i < 100; i++) {
  const n = sg.int(-100_000_000, 2_100_000_000);
  const ts: Value = [n, String(n), `${n}.75`, timeText(sg)][i % 4];
  stamps.push({ tz: ZONES[(i >> 2) % ZONES.length], format: sg.pick(FORMATS), ts });
}
let stampResults: OracleResult[] | undefined;
const phpStamps = () =>
  (stampResults ??= callPhp(
    stamps.map((c) => ({
      fn: '__eval',
      tz: c.tz,
      args: [
        `$t = ${phpLiteral(c.ts)}; return date(${phpLiteral(c.format)}, is_numeric($t) ? (int)$t : strtotime($t, ${TEST_NOW}));`,
      ],
    })),
  ));

describe('{strtodate} against php date()', () => {
  it.each(stamps.map((c, i) => [i, c.tz, String(c.ts), c.format] as const))('#%i %s %s %s', (i) => {
    const c = stamps[i];
    const ctx = makeCtx({ timezone: c.tz });
    run(strtodate, { var: 'd', timestamp: c.ts, format: c.format }, ctx);
    expect({ str: Buffer.from(String(ctx.scope.d)).toString('base64') }).toEqual(phpStamps()[i].value);
  });

  it('defaults to the render time', () => {
    const ctx = makeCtx({ now: 1234567890, timezone: 'UTC' });
    run(strtodate, { var: 'd', format: 'Y-m-d H:i:s' }, ctx);
    const r = golden({ fn: 'date', tz: 'UTC', args: ['Y-m-d H:i:s', 1234567890] });
    expect({ str: Buffer.from(String(ctx.scope.d)).toString('base64') }).toEqual(r.value);
  });
});
