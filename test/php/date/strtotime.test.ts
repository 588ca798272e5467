import { describe, expect, it } from 'vitest';
import { strtotimeInt } from '../../../src/php/date/strtotime.js';
import { Prng } from '../../support/prng.js';
import { type Case, compareWithPhp, expectAgreement } from '../../support/oracle-args.js';

const ZONES = ['Asia/Tokyo', 'UTC', 'America/New_York', 'Europe/London'];
// 2023-11-15 07:13:20 JST (a Wednesday), just before US and UK DST changes, a Sunday, a leap day, month ends
const BASES = [
  1700000000, 1710050000, 1711840000, 1730600000, 1729980000, 1709164800, 1706659200, 1704067199, 1718409600,
];

const st = (s: string, base: number, tz: string): Case => ({
  fn: 'strtotime',
  args: [s, base],
  tz,
  ours: () => strtotimeInt(s, base, tz),
});

const HAND = [
  '+1 day',
  'tomorrow',
  'next monday',
  '2024-02-30',
  '-1 week 2 days',
  'not a date',
  'now',
  'today',
  'midnight',
  'noon',
  'yesterday',
  '-7 day',
  '+2 weeks',
  '+1 month',
  '+1 year',
  'last friday',
  'first day of this month',
  'last day of next month',
  'first monday of January 2025',
  'last sunday of march 2024',
  'monday this week',
  'sunday this week',
  'now +1hour',
  'today 09:00',
  'next week',
  'this week',
  'last week',
  'next month',
  'last year',
  'this friday',
  'friday',
  'sat',
  '3 days ago',
  '2 weeks ago',
  '2024-01-15',
  '2024/01/15',
  '01/15/2024',
  '1/2/3',
  '15-01-2024',
  '15.01.2024',
  '2024-01-15 09:30',
  '2024-01-15 09:30:45',
  '2024-01-15T09:30:00Z',
  '2024-01-15T09:30:00+09:00',
  '2024-01-15 09:30:00 UTC',
  '2024-01-15 09:30 Asia/Tokyo',
  '@0',
  '@1700000000',
  '@-86400',
  '20240229235959',
  '15 January 2024',
  'Jan 15 2024',
  'January 15, 2024',
  'Jan 15',
  '15 Jan',
  'March 2024',
  'jan',
  '9am',
  '9:30pm',
  '12am',
  '12pm',
  '10:00 UTC',
  '10:00 jst',
  '2024',
  'foo',
  '',
  '  ',
  'a',
  'z',
  'noon tomorrow',
  'tomorrow noon',
  '2024-03-10 02:30',
  '2024-11-03 01:30',
  '2024-03-31 01:30',
  '2024-10-27 01:30',
  '+24 hours',
  '+1440 minutes',
  '2024-02-29 +1 year',
  '2023-01-31 +1 month',
  'last day of february',
  'first day of next year',
  '+1 week 3 days 4 hours',
  '-1 month',
  '2024-12-31 23:59:59 +1 second',
  '10 September 2000',
  '2000-09-10 +1 week',
  'next year',
  'yesterday noon',
  'tomorrow 13:45',
  'Sat, 15 Jan 2024 10:00:00 +0900',
];

describe('strtotime against php', () => {
  it('hand-picked formats', () => {
    const cases: Case[] = [];
    for (const s of HAND) for (const tz of ZONES) cases.push(st(s, 1700000000, tz));
    expectAgreement(compareWithPhp(cases, 'php/date/strtotime'));
  });

  it('500+ random combinations agree with php (seeded)', () => {
    const r = new Prng(7);
    const dateParts = [
      () => `${r.int(1990, 2060)}-${String(r.int(1, 12)).padStart(2, '0')}-${String(r.int(1, 31)).padStart(2, '0')}`,
      () => `${r.int(1990, 2060)}/${String(r.int(1, 12)).padStart(2, '0')}/${String(r.int(1, 31)).padStart(2, '0')}`,
      () => `${r.int(1, 12)}/${r.int(1, 31)}/${r.int(1990, 2060)}`,
      () => `${r.int(1, 31)}-${String(r.int(1, 12)).padStart(2, '0')}-${r.int(1990, 2060)}`,
      () => `${r.int(1, 28)} ${r.pick(['January', 'Feb', 'march', 'Sept', 'December'])} ${r.int(1990, 2060)}`,
      () => `${r.pick(['Jan', 'February', 'Aug', 'oct'])} ${r.int(1, 28)} ${r.int(1990, 2060)}`,
      () => r.pick(['today', 'tomorrow', 'yesterday', 'midnight', 'now', 'noon']),
      () => `@${r.int(0, 2000000000)}`,
    ];
    const timeParts = [
      () => `${String(r.int(0, 23)).padStart(2, '0')}:${String(r.int(0, 59)).padStart(2, '0')}`,
      () => `${r.int(0, 23)}:${String(r.int(0, 59)).padStart(2, '0')}:${String(r.int(0, 59)).padStart(2, '0')}`,
      () => `${r.int(1, 12)}${r.pick(['am', 'pm', ' AM', 'pm'])}`,
      () => `${r.int(1, 12)}:${String(r.int(0, 59)).padStart(2, '0')}${r.pick(['am', 'pm'])}`,
    ];
    const relParts = [
      () =>
        `${r.pick(['+', '-', ''])}${r.int(1, 40)} ${r.pick(['day', 'days', 'week', 'weeks', 'month', 'months', 'year', 'hour', 'hours', 'min', 'minutes', 'sec', 'seconds', 'fortnight'])}`,
      () =>
        `${r.pick(['next', 'last', 'this'])} ${r.pick(['monday', 'friday', 'sunday', 'week', 'month', 'year', 'day', 'sat'])}`,
      () =>
        `${r.pick(['first', 'last'])} day of ${r.pick(['this month', 'next month', 'last month', 'january 2025', 'february', 'next year'])}`,
      () =>
        `${r.pick(['first', 'second', 'third', 'last'])} ${r.pick(['monday', 'tuesday', 'friday', 'sunday'])} of ${r.pick(['January 2025', 'next month', 'this month', 'March 2024'])}`,
      () => `${r.pick(['monday', 'wednesday', 'sunday'])} ${r.pick(['this week', 'next week', 'last week'])}`,
      () => `${r.int(1, 10)} ${r.pick(['days', 'weeks', 'months'])} ago`,
      () => r.pick(['monday', 'Fri', 'saturday', 'tue']),
    ];
    const cases: Case[] = [];
    for (let n = 0; n < 560; n++) {
      const parts: string[] = [];
      const shape = r.int(0, 5);
      if (shape === 0) parts.push(dateParts[r.int(0, dateParts.length - 1)]());
      else if (shape === 1) parts.push(dateParts[r.int(0, 5)](), timeParts[r.int(0, timeParts.length - 1)]());
      else if (shape === 2) parts.push(relParts[r.int(0, relParts.length - 1)]());
      else if (shape === 3) parts.push(dateParts[r.int(0, 6)](), relParts[r.int(0, 1)]());
      else if (shape === 4) parts.push(relParts[r.int(0, 1)](), timeParts[r.int(0, 1)]());
      else parts.push(relParts[0](), relParts[0]());
      cases.push(st(parts.join(' '), r.pick(BASES) + r.int(-3600, 3600) * (r.chance(0.5) ? 1 : 0), r.pick(ZONES)));
    }
    expect(cases.length).toBeGreaterThanOrEqual(500);
    expectAgreement(compareWithPhp(cases));
  });

  it("huge timestamps and relative amounts: php's answer, in constant time (no walk month by month)", () => {
    const units = ['sec', 'minutes', 'hours', 'days', 'weeks', 'fortnight', 'months', 'years', 'monday', 'sat'];
    const huge = [
      '@99999999999999',
      '@-99999999999999',
      '@999999999999999',
      '@99999999999999999',
      '@-99999999999999999',
      '@9223372036854775807',
      '@-9223372036854775808',
      '@9223372036854775808',
      '@-9223372036854775809',
      '@000000000000000000000001',
      '@-000000000000000000000001',
      '@00000000000000000000000001',
      '@1000000000000000000000000',
      '@9223372036854775000 +807 sec',
      '@9223372036854775000 +808 sec',
      '@-9223372036854775808 -1 sec',
      '@9223372036854775807 +1 min',
      '@9223372036854700000 +2 day',
      '@9223372036854775807 -1 day',
      '@99999999999999999 +1 year',
      '@100 ago',
      '@-86400 monday',
      '@86400 ago monday',
      ...units.flatMap((u) => [
        `+9999999999999 ${u}`,
        `-9999999999999 ${u}`,
        `9999999999999 ${u} ago`,
        `+4000000000 ${u}`,
      ]),
      '+9999999999999 years +9999999999999 months',
      'first day of +9999999999999 months',
      'last day of -9999999999999 months',
      'next monday +9999999999999 weeks',
      '2024-02-29 +9999999999999 days',
      '+9999999999999 sec +9999999999999 sec 2000-01-01',
    ];
    const cases: Case[] = [];
    for (const s of huge) for (const tz of ZONES) cases.push(st(s, 1700000000, tz));
    const bad = compareWithPhp(cases);
    expectAgreement(bad);
  }, 20_000); // the month-by-month walk took seconds for one of these, and never ended for most
});
