/** The requests a site keeps in flight (cookie jars, nesting) and its engines per depth: both bounded. */
import { describe, expect, it } from 'vitest';
import { IMPLICIT_KEPT, SiteRequests } from '../../src/site/requests.js';
import { MAX_INTERNAL_DEPTH, SiteEngines } from '../../src/site/engines.js';

describe('SiteRequests', () => {
  it('a request begun is kept until it ends, and cannot begin twice', () => {
    const r = new SiteRequests();
    const s = r.begin('a', { serving: ['1/news'], depth: 1 });
    expect(r.get('a')).toBe(s);
    expect(() => r.begin('a')).toThrow(/begun already/);
    expect(r.end('a')).toBe(s);
    expect(r.open).toBe(0);
  });

  it('ids never begun get an empty jar on first use; only the newest IMPLICIT_KEPT are kept', () => {
    const r = new SiteRequests();
    r.get('first').jar.cookies.set('x', '1');
    expect(r.get('first').jar.cookies.get('x')).toBe('1');
    for (let i = 0; i < IMPLICIT_KEPT; i++) r.get(`other-${i}`);
    expect(r.get('first').jar.cookies.has('x')).toBe(false);
    expect(r.open).toBe(0);
  });
});

describe('SiteEngines', () => {
  it('one engine per depth, made on first use; none past the deepest', async () => {
    const e = new SiteEngines({ workers: 0 });
    try {
      expect(e.at(1)).toBe(e.at(1));
      expect(e.at(0)).not.toBe(e.at(1));
      expect(() => e.at(MAX_INTERNAL_DEPTH + 1)).toThrow(RangeError);
      expect(() => e.at(-1)).toThrow(RangeError);
    } finally {
      await e.close();
    }
  });

  it("a site attached again replaces the older one; the older one's detach then leaves it", async () => {
    const e = new SiteEngines({ workers: 0 });
    const site = { template: () => undefined, customFunction: () => undefined, settings: {} };
    const detachOld = e.attach('a', site);
    const detachNew = e.attach('a', { ...site });
    detachOld();
    expect(e.attached('a')).toBe(true);
    detachNew();
    expect(e.attached('a')).toBe(false);
    await e.close();
  });
});
