/**
 * How the site commands show an instant: in the site's time zone, with its offset
 * (`2023-10-01 09:00:00 +09:00`), so `batch history`, `site outbox` and `site ls` agree with each
 * other and with what a template prints on that site, and a reader elsewhere can still convert.
 */
export function siteTime(seconds: number, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'longOffset',
  }).formatToParts(new Date(seconds * 1000));
  const p = (t: string) => parts.find((x) => x.type === t)?.value ?? '';
  // longOffset is `GMT+09:00`, or `GMT` for a zero offset.
  const offset = p('timeZoneName').replace(/^GMT/, '') || '+00:00';
  return `${p('year')}-${p('month')}-${p('day')} ${p('hour')}:${p('minute')}:${p('second')} ${offset}`;
}
