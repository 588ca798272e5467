/**
 * strftimeFor keeps a day-only format's text per local day (src/php/date/strftime.ts, D272): one
 * prepared format called over many instants, in zones without DST (Asia/Tokyo) and with it
 * (America/New_York, Europe/Berlin, their transition days included), instants of the same day
 * and of days past the kept map's size, the same map serving several zones, always gives what
 * phpStrftime gives (itself checked against PHP in date.test.ts). A format of day-only and
 * time-of-day conversions keeps its day's part and prints the time per call (D288); one that
 * reads the offset, the zone's name or the instant (%z, %Z, %s, %c) is never kept by day.
 */
import { describe, expect, it } from 'vitest';
import { phpStrftime, strftimeFor } from '../../../src/php/date/strftime.js';
import { Prng } from '../../support/prng.js';

const ZONES = ['Asia/Tokyo', 'America/New_York', 'Europe/Berlin', 'UTC', 'Australia/Lord_Howe'];
// Around DST changes: New York 2024-03-10 and 2024-11-03, Berlin 2024-03-31 and 2024-10-27 (UTC).
const EDGES = [1710054000, 1730613600, 1711846800, 1729990800];

const DAY_FORMATS = [
  '%Y年%m月%d日',
  '%Y-%m-%d',
  '%b %e, %Y (%a)',
  '%A %B %-d %j %U %W %V %G %g %u %w %C %y',
  '%D|%F|%x|%%|%n|%t',
  '%_10Y|%^a|%#b|%010d',
  '%Ey%Od %q %',
  '令和%y年%-m月%-d日（%a）',
];
const TIME_FORMATS = ['%Y年%m月%d日 %H時%M分', '%m月%d日 (%H:%M)', '%s', '%z %Z', '%c', '%T', '%p %I %l %k %P'];

function instants(r: Prng, n: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const kind = r.int(0, 9);
    // Near a transition, near the instant before (the same day often), or anywhere in 1906-2100.
    if (kind < 3) out.push(r.pick(EDGES) + r.int(-2 * 86400, 2 * 86400));
    else if (kind < 6 && out.length > 0) out.push(out[out.length - 1]! + r.int(-40000, 40000));
    else out.push(r.int(-2_000_000_000, 4_102_444_800));
  }
  return out;
}

describe('strftimeFor over many instants', () => {
  it('a day-only format kept by day gives what phpStrftime gives, zone after zone', () => {
    const r = new Prng(20261129);
    for (const format of DAY_FORMATS) {
      const once = strftimeFor(format);
      for (const ts of instants(r, 900)) {
        const tz = r.pick(ZONES);
        expect(once(ts, tz), `${format} ${ts} ${tz}`).toBe(phpStrftime(format, ts, tz));
      }
    }
  });

  it('the same local day at every hour, across a transition, in one zone', () => {
    const once = strftimeFor('%Y年%m月%d日(%a)');
    for (const tz of ['America/New_York', 'Europe/Berlin', 'Asia/Tokyo'])
      for (const edge of EDGES)
        for (let ts = edge - 30 * 3600; ts <= edge + 30 * 3600; ts += 1800)
          expect(once(ts, tz), `${ts} ${tz}`).toBe(phpStrftime('%Y年%m月%d日(%a)', ts, tz));
  });

  it('a format of the day and the time of day, every 7 minutes across a transition, in one zone', () => {
    for (const format of ['%Y年%m月%d日 %H時%M分', '%a %d %I:%M:%S %p|%T|%R|%X|%r', '%H%M%S%j%k']) {
      const once = strftimeFor(format);
      for (const tz of ['America/New_York', 'Europe/Berlin', 'Australia/Lord_Howe', 'Asia/Tokyo'])
        for (const edge of EDGES)
          for (let ts = edge - 30 * 3600; ts <= edge + 30 * 3600; ts += 420)
            expect(once(ts, tz), `${format} ${ts} ${tz}`).toBe(phpStrftime(format, ts, tz));
    }
  });

  it('a day part or a time part too wide makes the whole false, as phpStrftime', () => {
    for (const format of ['%5000Y %H', '%H %5000d', '%Y %5000H', '%4090Y%H%M', '%d%4094M']) {
      const once = strftimeFor(format);
      for (const ts of [0, 1_700_000_000, 1_700_003_600])
        expect(once(ts, 'Asia/Tokyo'), format).toBe(phpStrftime(format, ts, 'Asia/Tokyo'));
    }
  });

  it('formats that read the time of day, the offset or the zone agree too', () => {
    const r = new Prng(35);
    for (const format of TIME_FORMATS) {
      const once = strftimeFor(format);
      for (const ts of instants(r, 300)) {
        const tz = r.pick(ZONES);
        expect(once(ts, tz), `${format} ${ts} ${tz}`).toBe(phpStrftime(format, ts, tz));
      }
    }
  });
});
