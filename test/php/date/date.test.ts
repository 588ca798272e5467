import { describe, expect, it } from 'vitest';
import { phpDate } from '../../../src/php/date/date.js';
import { phpStrftime, strftimeFor } from '../../../src/php/date/strftime.js';
import { Prng } from '../../support/prng.js';
import { type Case, compareWithPhp, expectAgreement } from '../../support/oracle-args.js';

const ZONES = ['Asia/Tokyo', 'UTC', 'America/New_York', 'Europe/London'];
const LETTERS = 'dDjlNSwzWFmMntLoXxYyaABgGhHisuveIOPpTZcrU';
// DST transitions (UTC) of New York and London, and the 1968-71 British Standard Time.
const EDGES = [
  1710054000,
  1730613600,
  1711846800,
  1729990800,
  57722400,
  -37263600 + 86400 * 400,
  1268550000,
  1288494000,
  984549600,
  4102444800,
];

const dateCase = (format: string, ts: number, tz: string): Case => ({
  fn: 'date',
  args: [format, ts],
  tz,
  ours: () => phpDate(format, ts, tz),
});
/** Ours is phpStrftime, and strftimeFor (the format parsed once, as date_format prepares it) must agree with it. */
const strftimeCase = (format: string, ts: number, tz: string): Case => ({
  fn: 'strftime',
  args: [format, ts],
  tz,
  ours: () => {
    const once = strftimeFor(format)(ts, tz);
    const ours = phpStrftime(format, ts, tz);
    if (once !== ours)
      throw new Error(`strftimeFor gives ${JSON.stringify(once)}, phpStrftime ${JSON.stringify(ours)}`);
    return ours;
  },
});

function randomTs(r: Prng): number {
  if (r.chance(0.3)) return r.pick(EDGES) + r.int(-7200, 7200);
  return r.int(0, 4102444800); // 1970..2100
}

describe('date() against php', () => {
  it('hand-picked cases', () => {
    const cases: Case[] = [
      dateCase('D, d M Y H:i', 1709164800, 'Asia/Tokyo'),
      dateCase('c|r', 1700000000, 'Asia/Tokyo'),
      dateCase('Y年n月j日(D)', 1711897200, 'Asia/Tokyo'),
      dateCase('\\Y\\m\\d Y\\', 1700000000, 'UTC'),
      dateCase('jS F, jS, jS jS', 1700000000 - 86400 * 14, 'UTC'),
      dateCase('I T e O P p Z', 1700000000, 'UTC'),
      dateCase('B|B|B', -1, 'UTC'),
      dateCase('W o Y', 1704067200, 'UTC'),
      dateCase('W o Y', 1735603200, 'Asia/Tokyo'),
      dateCase('I T', 10000000, 'Europe/London'),
      dateCase('I T', 86400 * 400, 'Europe/London'),
    ];
    for (const tz of ZONES) for (const ts of EDGES) cases.push(dateCase('Y-m-d H:i:s I T O', ts, tz));
    expectAgreement(compareWithPhp(cases, 'php/date/date'));
  });

  it('500+ random date() calls agree with php (seeded)', () => {
    const r = new Prng(1970);
    const cases: Case[] = [];
    for (let n = 0; n < 560; n++) {
      let format = '';
      const len = r.int(1, 8);
      for (let k = 0; k < len; k++)
        format += r.chance(0.85)
          ? LETTERS[r.int(0, LETTERS.length - 1)]
          : r.pick(['-', ' ', '\\', '/', ':', '年', 'x']);
      cases.push(dateCase(format, randomTs(r), r.pick(ZONES)));
    }
    expect(cases.length).toBeGreaterThanOrEqual(500);
    expectAgreement(compareWithPhp(cases));
  });

  it('past 2^31 and year 9999, zones with DST keep their last rule (the POSIX string) every year', () => {
    const days = (y: number, m: number, d: number) => Math.floor(Date.UTC(2000, m - 1, d) / 86400000) + yearShift(y);
    // Date.UTC maps years 0..99 to 19xx, so the year is moved in whole 400-year cycles (146097 days).
    const yearShift = (y: number) => ((y - 2000) / 400) * 146097;
    const sunday = (y: number, m: number, nth: number) => {
      const first = days(y, m, 1);
      const toSunday = (((3 - first) % 7) + 7) % 7; // 1970-01-04 (day 3) was a Sunday
      if (nth > 0) return first + toSunday + 7 * (nth - 1);
      const next = days(y, m + 1, 1) - 7;
      return next + ((((3 - next) % 7) + 7) % 7);
    };
    // Each zone's transitions in UTC by its current rule: New York (second Sunday of March 07:00,
    // first of November 06:00), London (last Sundays of March and October 01:00), Sydney (first
    // Sundays of October and April at 02:00 and 03:00 local: 16:00 UTC the day before).
    const transitions = (tz: string, y: number): number[] => {
      if (tz === 'America/New_York') return [sunday(y, 3, 2) * 86400 + 7 * 3600, sunday(y, 11, 1) * 86400 + 6 * 3600];
      if (tz === 'Europe/London') return [sunday(y, 3, -1) * 86400 + 3600, sunday(y, 10, -1) * 86400 + 3600];
      return [sunday(y, 10, 1) * 86400 - 8 * 3600, sunday(y, 4, 1) * 86400 - 8 * 3600];
    };
    const cases: Case[] = [];
    for (const tz of ['America/New_York', 'Europe/London', 'Australia/Sydney'])
      for (const y of [2038, 2040, 2100, 2400, 2800, 6000, 9600, 10000, 20000, 100000])
        for (const t of transitions(tz, y))
          for (const ts of [t - 1, t, t + 3599])
            cases.push(
              dateCase('Y-m-d H:i:s T I O e N', ts, tz),
              strftimeCase('%Y-%m-%d %H:%M:%S %Z %z %j %V', ts, tz),
            );
    expectAgreement(compareWithPhp(cases, 'php/date/date-far-dst'));
  });

  it('timestamps beyond what a Date holds (±8.64e12 s): the zone rules repeat every 400 years, as php computes them', () => {
    const far = [
      8640000000000,
      8640000086400,
      9999999999999,
      99999999999999,
      1e15,
      2 ** 52,
      -8640000000001,
      -9999999999999,
      -99999999999999,
      -(2 ** 52),
    ];
    const cases: Case[] = [];
    for (const tz of ZONES)
      for (const ts of far)
        cases.push(
          dateCase('Y-m-d H:i:s O Z I N W o t L z', ts, tz),
          strftimeCase('%Y-%m-%d %H:%M:%S %z %j %G %V %u', ts, tz),
        );
    expectAgreement(compareWithPhp(cases));
  });
});

describe('strftime() against php (C locale)', () => {
  it('hand-picked cases', () => {
    const fs = [
      '%f',
      '%Q',
      '%5d',
      '%_5d',
      '%-d',
      '%010Y',
      '%^a',
      '%#b',
      '%Ey',
      '%Od',
      '%E',
      '%',
      'abc%',
      '%300d',
      '%5000d',
      '',
      '%p',
      '%P',
      '%c',
      '%x',
      '%X',
      '%Z',
      '%z',
      '%s',
      '%C',
      '%g%G%V%U%W%u%w%j',
      '%k|%l|%e',
      '%+',
      '%h',
      '%D|%F|%T|%R|%r',
      '%n%t%%',
      '%_3H|%-H|%03e|%^B|%#Z|%#p|%10A|%-10A|%_10A|%#A|%0_5d|%5%|%-5%|%Ex|%EX|%Ec|%OH|%Oy|%EY|%EC|%Eg|%Og',
      '%^P|%^#Z|%^c|%10c|%5',
      '%E5d|%5Ed|%Ok|%Ol|%EZ',
      '%b %e, %Y',
      '%Y-%m-%d %H:%M:%S',
      '%y年%m月%d日 %H時%M分',
      '%I:%M %p',
      '%a %A %b %B',
      'x'.repeat(4095),
      'x'.repeat(4096),
    ];
    const cases: Case[] = [];
    for (const tz of ZONES) for (const f of fs) cases.push(strftimeCase(f, 1700000000, tz));
    expectAgreement(compareWithPhp(cases, 'php/date/strftime'));
  });

  it('random strftime calls agree with php (seeded)', () => {
    const r = new Prng(2038);
    const codes = 'aAbBcCdDeFgGhHIjklmMnprRsStTuUVwWxXyYzZ%P';
    const cases: Case[] = [];
    for (let n = 0; n < 300; n++) {
      let format = '';
      const len = r.int(1, 5);
      for (let k = 0; k < len; k++) {
        format +=
          '%' +
          (r.chance(0.2) ? r.pick(['_', '-', '0', '^', '#']) : '') +
          (r.chance(0.15) ? String(r.int(1, 12)) : '') +
          (r.chance(0.08) ? r.pick(['E', 'O']) : '') +
          codes[r.int(0, codes.length - 1)] +
          (r.chance(0.3) ? ' ' : '');
      }
      cases.push(strftimeCase(format, randomTs(r), r.pick(ZONES)));
    }
    expectAgreement(compareWithPhp(cases));
  });
});
