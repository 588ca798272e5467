/**
 * EngineOptions.tenant: one engine serving several tenants takes each render's time zone,
 * language, root URL, constants and host adapters from its tenant, not from the engine.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine, TemplateError, type TenantSettings } from '../../src/index.js';

const settings: Record<string, TenantSettings> = {
  tokyo: {
    timezone: 'Asia/Tokyo',
    lang: 'ja',
    rootUrl: 'http://tokyo.example',
    constants: { SITE_KEY: 'tokyo' },
    host: { secrets: { get: async () => ({ value: 'tokyo-secret', hosts: [] }) } },
  },
  york: { timezone: 'America/New_York', lang: 'en', rootUrl: 'http://york.example', constants: { SITE_KEY: 'york' } },
};

describe('EngineOptions.tenant', () => {
  const asked: string[] = [];
  const engine = createEngine({
    workers: 0,
    timezone: 'UTC',
    constants: { SITE_KEY: 'engine-wide' },
    tenant: (identity) => {
      asked.push(identity.tenant);
      const s = settings[identity.tenant];
      if (!s) throw new Error(`unknown tenant ${identity.tenant}`);
      return s;
    },
  });
  afterAll(() => engine.close());

  const probe = '{$smarty.const.SITE_KEY}|{"2024-01-01 00:00:00 UTC"|strtotime|date_format:"%H"}';

  it("gives each render its own tenant's settings", async () => {
    expect((await engine.render(probe, { identity: { tenant: 'tokyo' } })).output).toBe('tokyo|09');
    expect((await engine.render(probe, { identity: { tenant: 'york' } })).output).toBe('york|19');
    expect(asked).toEqual(['tokyo', 'york']);
  });

  it("gives each render its own tenant's adapters: one without an adapter is refused", async () => {
    const source = '{secret var=s key="K"}{$s|truncate:8:""}';
    expect((await engine.render(source, { identity: { tenant: 'tokyo' } })).output).toBe('[secret:');
    await expect(engine.render(source, { identity: { tenant: 'york' } })).rejects.toMatchObject({
      code: 'E_HOST_CAPABILITY',
    });
  });

  it('a resolver that throws fails the render E_INTERNAL', async () => {
    const e = await engine.render(probe, { identity: { tenant: 'nobody' } }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(TemplateError);
    expect((e as TemplateError).code).toBe('E_INTERNAL');
  });
});
