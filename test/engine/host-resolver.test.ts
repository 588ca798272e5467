/**
 * EngineOptions.host as a HostResolver (D210): each render gets the adapters of its own tenant,
 * resolved once, at its first host call, and kept for that render only. Two tenants share one
 * engine; a render of one never reaches the other's adapters.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine, TemplateError, type HostAdapters, type RenderIdentity } from '../../src/index.js';

/** One tenant's adapters: a tags adapter that answers its own category and records each call. */
function tenantHost(tenant: string, calls: string[]): HostAdapters {
  return {
    tags: {
      categories: async () => {
        calls.push(tenant);
        return [{ categoryId: 1, parentId: null, names: { ja: `${tenant}-category` }, order: 1 }];
      },
      tagsOf: async () => [],
      tags: async () => [],
      related: async () => [],
    },
  };
}

describe('EngineOptions.host as a resolver', () => {
  const calls: string[] = [];
  const asked: RenderIdentity[] = [];
  const hosts: Record<string, HostAdapters> = { a: tenantHost('a', calls), b: tenantHost('b', calls) };
  const failures: { plugin: string; tenant: string }[] = [];
  const engine = createEngine({
    workers: 0,
    host: (identity) => {
      asked.push(identity);
      const host = hosts[identity.tenant];
      if (!host) throw new Error(`no tenant ${identity.tenant}`);
      return host;
    },
    onHostError: (_e, where) => void failures.push(where),
  });
  afterAll(() => engine.close());

  const twoCalls =
    '{assign_tag_category_list var=c}{assign_tag_category_list var=d}{$c[0].tag_category_nm}|{$d[0].tag_category_nm}';

  it("resolves once per render, with the render's identity, and reaches that tenant's adapters only", async () => {
    asked.length = 0;
    calls.length = 0;
    const r = await engine.render(twoCalls, { identity: { tenant: 'a', memberId: 7, requestId: 'req-a' } });
    expect(r.output).toBe('a-category|a-category');
    expect(asked.map((i) => [i.tenant, i.memberId, i.requestId])).toEqual([['a', 7, 'req-a']]);
    expect(calls).toEqual(['a', 'a']);
  });

  it('keeps concurrent renders of two tenants to their own adapters', async () => {
    asked.length = 0;
    calls.length = 0;
    const renders = await Promise.all(
      ['a', 'b', 'a', 'b'].map((tenant) => engine.render(twoCalls, { identity: { tenant } })),
    );
    expect(renders.map((r) => r.output)).toEqual([
      'a-category|a-category',
      'b-category|b-category',
      'a-category|a-category',
      'b-category|b-category',
    ]);
    expect(asked.map((i) => i.tenant).sort()).toEqual(['a', 'a', 'b', 'b']);
    expect(calls.filter((t) => t === 'a')).toHaveLength(4);
    expect(calls.filter((t) => t === 'b')).toHaveLength(4);
  });

  it('does not ask for a render that calls no host', async () => {
    asked.length = 0;
    expect((await engine.render('{"x"|upper}', { identity: { tenant: 'a' } })).output).toBe('X');
    expect(asked).toEqual([]);
  });

  it('fails the host call E_HOST_FAILED when the resolver throws, and tells onHostError', async () => {
    asked.length = 0;
    failures.length = 0;
    const e = await engine.render(twoCalls, { identity: { tenant: 'nobody' } }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(TemplateError);
    expect((e as TemplateError).code).toBe('E_HOST_FAILED');
    expect((e as TemplateError).message).not.toContain('no tenant');
    expect(failures).toEqual([{ plugin: 'assign_tag_category_list', tenant: 'nobody' }]);
    expect(asked).toHaveLength(1);
  });

  it('answers E_HOST_CAPABILITY for an adapter the resolved host lacks', async () => {
    const e = await engine.render('{secret var=s key="K"}', { identity: { tenant: 'a' } }).catch((x: unknown) => x);
    expect((e as TemplateError).code).toBe('E_HOST_CAPABILITY');
  });
});
