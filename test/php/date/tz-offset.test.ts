/**
 * utcOffset answers from a per-day cache (src/php/date/tz.ts); it must equal Intl's own answer
 * at every instant, in zones with odd histories (30-minute DST, negative DST, a skipped day,
 * DST suspended for Ramadan, local mean time before 1900), at seeded random instants and at the
 * seconds around each transition the random walk finds.
 */
import { describe, expect, it } from 'vitest';
import { intlOffset, utcOffset } from '../../../src/php/date/tz.js';
import { Prng } from '../../support/prng.js';

const ZONES = [
  'Asia/Tokyo',
  'America/New_York',
  'Europe/London',
  'Europe/Dublin',
  'Europe/Moscow',
  'Australia/Lord_Howe',
  'Asia/Kathmandu',
  'America/St_Johns',
  'Pacific/Apia',
  'Pacific/Kiritimati',
  'Africa/Casablanca',
  'Asia/Gaza',
  'Antarctica/Troll',
  'America/Caracas',
  'Asia/Kolkata',
  'Australia/Sydney',
  'America/Sao_Paulo',
  'Asia/Tehran',
];

/** The first instant after `from` (within `span` s) whose offset differs, found by bisection, or null. */
function transitionAfter(from: number, span: number, tz: string): number | null {
  const off = intlOffset(from, tz);
  let lo = from;
  let hi = from + span;
  if (intlOffset(hi, tz) === off) return null;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (intlOffset(mid, tz) === off) lo = mid;
    else hi = mid;
  }
  return hi;
}

describe('utcOffset equals Intl at every instant', () => {
  for (const tz of ZONES) {
    it(tz, () => {
      const g = new Prng(tz.length * 7919);
      const diffs: string[] = [];
      const check = (ts: number) => {
        const want = intlOffset(ts, tz);
        const got = utcOffset(ts, tz);
        if (got !== want) diffs.push(`${new Date(ts * 1000).toISOString()} ${ts}: got ${got}, Intl ${want}`);
      };
      let transitions = 0;
      for (let i = 0; i < 300; i++) {
        // 1850..2100
        const ts = Math.floor(-3786825600 + g.next() * 7888608000);
        check(ts);
        const t = transitionAfter(ts, 200 * 86400, tz);
        if (t !== null) {
          transitions++;
          for (const d of [-86400, -3601, -1, 0, 1, 3599, 86400]) check(t + d);
        }
      }
      expect(diffs.slice(0, 5)).toEqual([]);
      if (tz !== 'Asia/Kolkata' && tz !== 'Pacific/Kiritimati') expect(transitions).toBeGreaterThan(0);
    });
  }
});
