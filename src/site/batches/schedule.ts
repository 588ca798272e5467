/**
 * Schedules of site.json `batches`: the platform's four choices, written as cron expressions in
 * the site's time zone (docs/decisions.md D97): every 15 minutes (`*\/15 * * * *`), every 30
 * minutes (`*\/30 * * * *`), every hour (`0 * * * *`) and daily at a time (`M H * * *`). A slot is
 * the start of a period; a runner queues the latest slot not queued yet (never a backlog of
 * missed ones), and a daily batch only when 23 hours have passed since the slot it last ran
 * (the platform's rule, which matters when the time of day is changed).
 */

export type Schedule = { every: 15 | 30 | 60 } | { daily: { hour: number; minute: number } };

const DAY_MINUTES = 1440;
/** A daily batch waits at least this long after its last slot. */
const DAILY_GAP_SECONDS = 23 * 3600;

/** The schedule of a cron expression, or null when it is none of the four forms. */
export function parseSchedule(cron: string): Schedule | null {
  const f = cron.trim().split(/\s+/);
  if (f.length !== 5 || f[2] !== '*' || f[3] !== '*' || f[4] !== '*') return null;
  if (f[1] === '*') {
    if (f[0] === '*/15') return { every: 15 };
    if (f[0] === '*/30') return { every: 30 };
    if (f[0] === '0') return { every: 60 };
    return null;
  }
  const minute = /^\d{1,2}$/.test(f[0]!) ? Number(f[0]) : -1;
  const hour = /^\d{1,2}$/.test(f[1]!) ? Number(f[1]) : -1;
  return minute >= 0 && minute < 60 && hour >= 0 && hour < 24 ? { daily: { hour, minute } } : null;
}

/** Minutes and seconds since local midnight of Unix time `now` in `timezone`. */
function localClock(now: number, timezone: string): { minutes: number; seconds: number } {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: timezone,
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(now * 1000));
  const n = (t: string) => Number(parts.find((p) => p.type === t)!.value);
  return { minutes: n('hour') * 60 + n('minute'), seconds: n('second') };
}

/** The start (Unix seconds) of the latest period of `s` at or before `now`. */
export function latestSlot(s: Schedule, now: number, timezone: string): number {
  const { minutes, seconds } = localClock(now, timezone);
  const since =
    'every' in s ? minutes % s.every : (minutes - (s.daily.hour * 60 + s.daily.minute) + DAY_MINUTES) % DAY_MINUTES;
  return now - since * 60 - seconds;
}

/** The slot to queue now, or null: the latest is queued already, or a daily one came too soon. */
export function dueSlot(s: Schedule, now: number, timezone: string, lastSlot: number | null): number | null {
  const slot = latestSlot(s, now, timezone);
  if (lastSlot !== null && slot <= lastSlot) return null;
  if ('daily' in s && lastSlot !== null && slot - lastSlot < DAILY_GAP_SECONDS) return null;
  return slot;
}
