/**
 * {site_sync} through the real engine against an embedder's adapter (test/support/host/site-sync.ts):
 * the plugin's rules whatever the host: the family of sites, the default target, the six-hour
 * interval on the render's clock, and what reaches the adapter. The local site's sync itself:
 * test/site/sync/.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../../../src/index.js';
import type { HostAdapters } from '../../../../src/host-api/host.js';
import { memorySync } from '../../../support/host/site-sync.js';
import { FIXED_NOW, templateError } from '../../../support/engine.js';

const HOUR = 3600;
const clock = { now: FIXED_NOW };
const memory = memorySync();
const host: HostAdapters = { siteSync: memory.adapter };
const engine = createEngine({ host, now: () => clock.now, workers: 1 });
afterAll(() => engine.close());

async function render(source: string, now = FIXED_NOW, tenant = 'default'): Promise<string> {
  clock.now = now;
  return (await engine.render(source, { identity: { tenant } })).output;
}
const code = async (source: string, now = FIXED_NOW, tenant = 'default') => {
  clock.now = now;
  const e = await templateError(engine.render(source, { identity: { tenant } }));
  return `${e.code}@${e.line}`;
};

describe('{site_sync}', () => {
  it('syncs from a child or the parent into the own site by default, and pushes into a child', async () => {
    expect(await render('{site_sync from_site_key="child" sync_type=1}a')).toBe('a');
    expect(await render('{site_sync from_site_key="default" to_site_key="child" sync_type=2}b')).toBe('b');
    expect(await render('{site_sync from_site_key="default" to_site_key="other-parent" sync_type=4}c')).toBe('c');
    expect(
      memory.runs.map(({ from, to, type, now, notAfter, tenant }) => [from, to, type, now - notAfter, tenant]),
    ).toEqual([
      ['child', 'default', 1, 6 * HOUR, 'default'],
      ['default', 'child', 2, 6 * HOUR, 'default'],
      ['default', 'other-parent', 4, 6 * HOUR, 'default'],
    ]);
  });

  it('refuses sites outside the family and sites the host does not have', async () => {
    const before = memory.runs.length;
    expect(await code('{site_sync from_site_key="stranger" sync_type=1}')).toBe('E_PERMISSION_DENIED@1');
    expect(await code('{site_sync from_site_key="child" to_site_key="stranger" sync_type=1}')).toBe(
      'E_PERMISSION_DENIED@1',
    );
    // A relation one side names alone: listed as a child without naming the parent, or naming a parent that does not list it.
    expect(await code('{site_sync from_site_key="unclaimed" sync_type=1}')).toBe('E_PERMISSION_DENIED@1');
    expect(await code('{site_sync from_site_key="adopter" sync_type=1}')).toBe('E_PERMISSION_DENIED@1');
    expect(await code('{site_sync from_site_key="default" sync_type=1}', FIXED_NOW, 'adopter')).toBe(
      'E_PERMISSION_DENIED@1',
    );
    expect(await code('\n{site_sync from_site_key="nowhere" sync_type=1}')).toBe('E_NOT_FOUND@2');
    expect(await code('{site_sync from_site_key="child" to_site_key="child" sync_type=1}')).toBe('E_BAD_ATTRIBUTE@1');
    expect(await code('{site_sync from_site_key="Child Site" sync_type=1}')).toBe('E_BAD_ATTRIBUTE@1');
    expect(await code('{site_sync from_site_key="child" sync_type=1}', FIXED_NOW, 'unknown-tenant')).toBe(
      'E_HOST_FAILED@1',
    );
    expect(memory.runs.length).toBe(before);
  });

  it("refuses a sync into the same site within 6 hours of the last, on the render's clock", async () => {
    const msg = await templateError(
      ((clock.now = FIXED_NOW + 2 * HOUR),
      engine.render('{site_sync from_site_key="child" sync_type=1}', { identity: { tenant: 'default' } })),
    );
    expect(msg.code).toBe('E_RATE_LIMIT');
    expect(msg.message).toMatch(/possible in 4\.0 hours/);
    expect(await code('{site_sync from_site_key="child" sync_type=2}', FIXED_NOW + 6 * HOUR - 1)).toBe(
      'E_RATE_LIMIT@1',
    );
    expect(await render('{site_sync from_site_key="child" sync_type=2}ok', FIXED_NOW + 6 * HOUR)).toBe('ok');
  });

  it('is E_HOST_CAPABILITY without the adapter', async () => {
    const bare = createEngine({ workers: 0 });
    try {
      const e = await templateError(bare.render('{site_sync from_site_key="child" sync_type=1}'));
      expect(e.code).toBe('E_HOST_CAPABILITY');
    } finally {
      await bare.close();
    }
  });
});
