/** How the site commands (`batch history`, `site outbox`, `site ls`) show an instant: the site's zone, with its offset. */
import { describe, expect, it } from 'vitest';
import { siteTime } from '../../src/cli/site-time.js';

describe('siteTime', () => {
  it("is the wall time of the site's zone followed by its offset", () => {
    expect(siteTime(1700000000, 'Asia/Tokyo')).toBe('2023-11-15 07:13:20 +09:00');
    expect(siteTime(1700000000, 'UTC')).toBe('2023-11-14 22:13:20 +00:00');
    expect(siteTime(1700000000, 'America/New_York')).toBe('2023-11-14 17:13:20 -05:00');
    expect(siteTime(1688000000, 'Asia/Kolkata')).toBe('2023-06-29 06:23:20 +05:30');
  });
});
