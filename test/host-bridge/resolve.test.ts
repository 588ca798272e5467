/** resolveHost and withAdapters (src/host-api/resolve.ts): the two forms of EngineOptions.host as one. */
import { describe, expect, it } from 'vitest';
import { resolveHost, withAdapters } from '../../src/host-api/resolve.js';
import type { HostAdapters, HostResolver, RenderIdentity } from '../../src/host-api/host.js';

const identity = (tenant: string): RenderIdentity => ({
  tenant,
  memberId: null,
  superUser: false,
  context: 'web',
  requestId: `r-${tenant}`,
});
const secretsOf = (tenant: string): HostAdapters['secrets'] => ({ get: async () => ({ value: tenant }) });

describe('resolveHost', () => {
  it('answers the object for every render, and the resolver for its identity', async () => {
    const shared: HostAdapters = { secrets: secretsOf('all') };
    expect(resolveHost(shared, identity('a'))).toBe(shared);
    const perTenant: HostResolver = ({ tenant }) => ({ secrets: secretsOf(tenant) });
    expect(await resolveHost(perTenant, identity('b')).secrets!.get('x')).toEqual({ value: 'b' });
  });

  it('refuses a resolver that gives no adapters', () => {
    const broken = (() => undefined) as unknown as HostResolver;
    expect(() => resolveHost(broken, identity('a'))).toThrow(/gave no adapters for a/);
  });
});

describe('withAdapters', () => {
  it("puts the extra adapters over each render's own, and removes one set to undefined", async () => {
    const host: HostResolver = ({ tenant }) => ({ secrets: secretsOf(tenant), geo: { countryOf: async () => 'JP' } });
    const extended = withAdapters(host, { geo: undefined, crypto: { siteKey: async () => new Uint8Array(1) } });
    const a = extended(identity('a'));
    expect(await a.secrets!.get('x')).toEqual({ value: 'a' });
    expect(a.geo).toBeUndefined();
    expect(a.crypto).toBeDefined();
    expect(withAdapters({ secrets: secretsOf('all') }, {})(identity('b')).secrets).toBeDefined();
  });
});
