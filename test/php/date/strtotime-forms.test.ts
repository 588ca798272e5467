/**
 * strtotime's less common input forms, each against PHP 8.2: business-day units ("+2 weekdays"),
 * ISO 8601 with a fraction and an offset (JavaScript's toISOString, "2024-06-05T12:34:56.789Z"),
 * ISO week dates, day-of-year dates, 14-digit timestamps, "@ts.frac", millisecond and
 * microsecond units, "back of"/"front of", a second time zone, and text PHP cannot read (false).
 * The hand table is frozen in test/fixtures/php/php/date/strtotime-forms.json (re-checked against
 * live PHP by test/conformance/php-fixtures.test.ts); the seeded combinations ask live PHP.
 */
import { describe, expect, it } from 'vitest';
import { phpStrtotime } from '../../../src/php/date/strtotime.js';
import { makeTimestamp } from '../../../src/php/date/make-timestamp.js';
import { phpStrftime } from '../../../src/php/date/strftime.js';
import dateFormat from '../../../src/plugins/date/date_format.js';
import { runBothWays } from '../../support/prepared.js';
import { testModifierContext } from '../../support/plugin-context.js';
import { Prng } from '../../support/prng.js';
import { type Case, compareWithPhp, expectAgreement } from '../../support/oracle-args.js';
import { smartyMakeTimestampPhp } from './smarty-make-timestamp.js';

const ZONES = ['Asia/Tokyo', 'UTC'];
// Wed 2024-06-05 12:34:56 JST (03:34:56 UTC); Sat 2024-06-08 00:00 UTC (09:00 JST); Sun 2024-06-09 00:00 UTC;
// Sat 2024-06-08 15:00 UTC, which is Sun 00:00 in Tokyo but still Saturday in UTC
const BASES = [1717558496, 1717804800, 1717891200, 1717858800];

const st = (s: string, base: number, tz: string): Case => ({
  fn: 'strtotime',
  args: [s, base],
  tz,
  ours: () => phpStrtotime(s, base, tz),
});

const WEEKDAYS = [
  '+2 weekdays',
  '-3 weekdays',
  'next weekday',
  'last weekday',
  '+0 weekday',
  '-0 weekdays',
  '+1 weekday',
  '-1 weekday',
  '+4 weekdays',
  '-4 weekdays',
  '+5 weekdays',
  '-5 weekdays',
  '+6 weekdays',
  '-6 weekdays',
  '+7 weekdays',
  '-7 weekdays',
  '+10 weekdays',
  '+100 weekdays',
  '-100 weekdays',
  '2 weekday',
  'first weekday',
  'this weekday',
  'previous weekday',
  'next weekdays',
  'weekday',
  'weekdays',
  'monday weekday',
  'WEEKDAY',
  '+1 weekday +1 weekday',
  'weekday ago',
  '+2 weekdays ago',
  '3 weekdays 2 days',
  'tomorrow +1 weekday',
  '2024-06-08 +1 weekday',
  '2024-06-09 -1 weekday',
  '2024-06-07 +1 weekday',
  '2024-06-10 -1 weekday',
  'first day of next month +3 weekdays',
  '+1 week 2 weekdays',
  '+3 weekdays 10:00',
  '2024-12-31 +1 weekday',
];
const ISO8601 = [
  '2024-06-05T12:34:56.789Z',
  '2024-06-05T12:34:56+09:00',
  '2024-06-05T12:34:56.5-0330',
  '20240605T123456',
  '2024-06-05T12:34:56Z',
  '2024-06-05T12:34:56-05:00',
  '2024-06-05T12:34:56.123456+05:30',
  '2024-06-05T12:34:56.000+00:00',
  '2024-06-05T12:34:56.9Z +1 day',
  '2024-06-05t12:34:56.5z',
  '2024-06-05T12:34:56.789 Z',
  '2024-06-05T12:34:56.789GMT+2',
  '2024-06-05T12:34:56.5+9',
  '2024-06-05T12:34:56.5+0930',
  '2024-06-05T12:34:56.789',
  '2024-06-05 12:34:56.789',
  '2024-06-05T12:34:56.789+09:00:30',
  '2024-06-05T12:34:56.789+090030',
  '2024-06-05T12:34:56,5Z',
  '20240605T12:34:56',
  '20240605t1234',
  '20240605T12:34',
  '2024:06:05 12:34:56',
  '2024-06-05 12:34:56 +093',
  '2024-06-05 12:34:56 +09:',
  '2024-06-05 12:34:56 +9:3',
  '2024-02-29T23:59:59.999Z',
  '2024-12-31T23:59:60.5Z',
  '1970-01-01T00:00:00.000Z',
];
const WEEK_AND_ORDINAL = [
  '2024-W23-1',
  '2024W231',
  '2024-W23',
  '2024W23',
  '2024-W01-1',
  '2024-W01-0',
  '2024-W01-7',
  '2021-W53-5',
  '2026-W01-1',
  '2024-W52-7 12:00',
  '2024-W23-3 +1 week',
  '2024-W531',
  '2024-W23-8',
  '2024-W00-1',
  '2024-W54',
  '2015-W53-7',
  '2024-153',
  '2024.153',
  '2024153',
  '2024-001',
  '2024-060',
  '2023-060',
  '2024.060',
  '2024.366',
  '2023-366',
  '2024-153 10:00',
  '2024-153 +1 day',
  '2024-000',
  '2024-367',
];
const FOURTEEN_DIGITS = [
  '20240605123456',
  '19991231235959',
  '20240229000000',
  '20241305123456',
  '20240632123456',
  '20240605246000',
  '20240605123460',
  '99991231235959',
  '00000101000000',
  '20240605 123456',
  '2024-06-05 123456',
];
const FRACTIONS_AND_TIME_OF = [
  '@1717558496.789',
  '@-1.5',
  '@-1.0',
  '@-0.5',
  '@1.',
  '@0.999999',
  '@0.9999999',
  '@12.5 +600 ms',
  '+500 ms',
  '+1500 msec',
  '-1 usec',
  '+1 \u00b5s',
  '+1 \u03bcs',
  '+3 \u00b5secs',
  '+2000000 usec',
  '+1 millisecond',
  '+3 microseconds',
  'now +500ms',
  '+2 msecs',
  '500 ms ago',
  '12:34:56.9 +200 ms',
  '12:34:56.999999 +1 usec',
  '2024-06-05T12:34:56.999Z +1 ms',
  '2024-06-05T12:34:56.5Z -600 msec',
  'back of 7pm',
  'front of 7pm',
  'back of 19',
  'front of 0',
  'front of 12am',
  'back of 12pm',
  'back of 7 pm',
  'Back Of 7PM',
  'tomorrow back of 7pm',
  'back of 13pm',
];
// PHP 8.2 skips a second zone with a warning and fails on a third; "@ts" after a zone leaves the date 0000-00-00
const SECOND_ZONE = [
  '+09:00 +05:00',
  '+09:00 +05:00 +01:00',
  'UTC JST',
  'UTC JST EST',
  'UTC foo',
  'GMT -3',
  '@0 +09:00',
  '+09:00 @0',
  '@0 @0',
  'UTC @1.5',
  '2024-06-05T12:34:56.5Z +01:00',
  '2024-06-05T12:34:56.5+02:00 +01:00 +03:00',
  '+01:00 2024-06-05T12:34:56.5+02:00',
  '2024-06-05 @0',
  '@0 2024-06-05',
  '@0 12:00',
  '12:00 @0',
];
// four digits: a time (20:24), the year after a time, the year when they are no time (19:99), a third fails
const FOUR_DIGITS = [
  '2024 2024',
  '10:00 2024',
  '10:00 2024 2024',
  '2024 tomorrow 2024',
  '7pm 1999',
  '1999',
  '2460',
  '1999 10:00',
  '1999 2000',
  '+093 7pm 2024',
];
// a trailing letter is a military time zone, so these read (J is the one letter that is not)
const TRAILING_LETTER = ['2024-06-05T', 'next weekdayz'];
const UNREADABLE = [
  'not a date',
  'foo bar',
  '2024-13-45T99:99:99Z',
  '2024-06-05T12:34:56.789J',
  '+2 workdays',
  '2024-W',
  'W23',
  '2024--153',
  '@',
];

const HAND = [
  ...WEEKDAYS,
  ...ISO8601,
  ...WEEK_AND_ORDINAL,
  ...FOURTEEN_DIGITS,
  ...FRACTIONS_AND_TIME_OF,
  ...SECOND_ZONE,
  ...FOUR_DIGITS,
  ...TRAILING_LETTER,
  ...UNREADABLE,
];

describe('strtotime input forms against php', () => {
  it(`${HAND.length} hand-picked inputs, each from four bases in two zones`, () => {
    expect(HAND.length).toBeGreaterThanOrEqual(80);
    const cases: Case[] = [];
    for (const tz of ZONES) for (const base of BASES) for (const s of HAND) cases.push(st(s, base, tz));
    expectAgreement(compareWithPhp(cases, 'php/date/strtotime-forms'));
    // (PHP agreeing is not enough: the forms the issue names must read, the unreadable ones must not)
    const KEY = [
      '+2 weekdays',
      '-3 weekdays',
      'next weekday',
      'last weekday',
      '+0 weekday',
      '2024-06-05T12:34:56.789Z',
      '2024-06-05T12:34:56+09:00',
      '2024-06-05T12:34:56.5-0330',
      '20240605T123456',
      '2024-W23-1',
      '2024W231',
      '2024-W23',
      '2024-153',
      '2024.153',
      '20240605123456',
    ];
    for (const tz of ZONES) {
      for (const base of BASES) {
        expect(KEY.filter((s) => phpStrtotime(s, base, tz) === false)).toEqual([]);
        expect(UNREADABLE.filter((s) => phpStrtotime(s, base, tz) !== false)).toEqual([]);
      }
    }
  });

  it('seeded combinations of business days, ISO week dates and ISO 8601 timestamps agree with live php', () => {
    const r = new Prng(23);
    const pad = (n: number, w = 2) => String(n).padStart(w, '0');
    const forms = [
      () => `${r.pick(['+', '-', ''])}${r.int(0, 30)} ${r.pick(['weekday', 'weekdays'])}`,
      () => `${r.pick(['next', 'last', 'this', 'first', 'third'])} weekday`,
      () =>
        `${r.int(2020, 2030)}-${pad(r.int(1, 12))}-${pad(r.int(1, 28))} ${r.pick(['+', '-'])}${r.int(0, 12)} weekdays`,
      () =>
        `${r.int(2000, 2040)}-${pad(r.int(1, 12))}-${pad(r.int(1, 28))}T${pad(r.int(0, 23))}:${pad(r.int(0, 59))}:${pad(r.int(0, 59))}.${r.int(0, 999999)}${r.pick(['Z', '+09:00', '-0330', '+05:30', '', '-08', '+0000'])}`,
      () =>
        `${r.int(2000, 2040)}${r.pick(['-W', 'W'])}${pad(r.int(1, 53))}${r.pick(['', '-', ''])}${r.chance(0.7) ? r.int(0, 7) : ''}`,
      () => `${r.int(2000, 2040)}${r.pick(['-', '.', ''])}${pad(r.int(1, 366), 3)}`,
      () =>
        `${r.int(1990, 2040)}${pad(r.int(1, 12))}${pad(r.int(1, 31))}${pad(r.int(0, 23))}${pad(r.int(0, 59))}${pad(r.int(0, 59))}`,
      () =>
        `@${r.pick(['', '-'])}${r.int(0, 2000000000)}.${r.int(0, 999999)} ${r.pick(['+', '-'])}${r.int(0, 3000)} ${r.pick(['ms', 'msec', 'usec', 'milliseconds'])}`,
      () => `${r.pick(['back', 'front'])} of ${r.int(0, 23)}${r.pick(['', 'am', 'pm', ' pm'])}`,
    ];
    const cases: Case[] = [];
    for (let n = 0; n < 400; n++) {
      const base = r.pick(BASES) + r.int(-5, 5) * 86400 + r.int(0, 86399);
      cases.push(st(forms[r.int(0, forms.length - 1)](), base, r.pick(ZONES)));
    }
    expectAgreement(compareWithPhp(cases));
  });
});

/**
 * date_format reads its input with Smarty 2's smarty_make_timestamp, which (Smarty 2.6.33 on
 * PHP 8.2) prints the current time when strtotime() returns false: that is its answer for text
 * no PHP can read, so the cases here hold the new forms, which must not reach that fallback.
 */
describe('date_format input (smarty_make_timestamp) with these forms', () => {
  const NOW = 1700000000;
  const SMARTY_MAKE_TIMESTAMP = smartyMakeTimestampPhp(NOW);
  const INPUTS = [
    '+2 weekdays',
    'next weekday',
    '2024-06-05T12:34:56.789Z',
    '2024-06-05T12:34:56.5-0330',
    '20240605T123456',
    '2024-W23-1',
    '2024W231',
    '2024-W23',
    '2024-153',
    '2024.153',
    '20240605123456',
    '20241305123456',
    'not a date',
  ];

  it('agree with Smarty 2\'s make_timestamp in php, and only unreadable text gives "now"', () => {
    const cases: Case[] = [];
    for (const tz of ZONES) {
      for (const v of INPUTS) {
        cases.push({
          fn: '__eval',
          args: [`$GLOBALS['__in'] = ${JSON.stringify(v)}; ${SMARTY_MAKE_TIMESTAMP}`],
          tz,
          ours: () => makeTimestamp(v, NOW, tz),
        });
      }
    }
    expectAgreement(compareWithPhp(cases, 'php/date/strtotime-forms-make-timestamp'));
    for (const tz of ZONES) {
      expect(INPUTS.filter((v) => makeTimestamp(v, NOW, tz) === NOW)).toEqual(['not a date']);
    }
  });

  it('|date_format prints these forms as php reads them, and warns only where it falls back to the current time', () => {
    const FORMAT = '%Y-%m-%d %H:%M:%S';
    for (const tz of ZONES) {
      const warnings: string[] = [];
      const ctx = testModifierContext({ timezone: tz, now: NOW, warnings });
      const printed = INPUTS.map((v) =>
        runBothWays(dateFormat, v, [FORMAT, ''], ctx, () => testModifierContext({ timezone: tz, now: NOW })),
      );
      expect(printed).toEqual(INPUTS.map((v) => phpStrftime(FORMAT, makeTimestamp(v, NOW, tz), tz)));
      expect(printed[INPUTS.indexOf('+2 weekdays')]).not.toBe(phpStrftime(FORMAT, NOW, tz));
      expect(printed[INPUTS.indexOf('not a date')]).toBe(phpStrftime(FORMAT, NOW, tz));
      expect(warnings).toEqual([
        'date_format could not read the date "not a date"; using the current time as Smarty 2 does',
      ]);
    }
  });
});
