/**
 * One engine serving many tenants (security HH-11): every template and function lookup gets the
 * render's identity, and compiled code is never shared between tenants whose includes differ.
 */
import { describe, expect, it } from 'vitest';
import { createEngine, type Engine, type EngineOptions, type RenderIdentity } from '../../src/index.js';
import { INLINE_MAX_CHARS } from '../../src/compiled-templates.js';
import { templateError } from '../support/engine.js';

/** Each tenant's own store, keyed by name exactly as the embedder would keep it. */
const STORES: Record<string, { templates: Record<string, string>; functions: Record<string, string> }> = {
  alice: { templates: { 'header.tpl': 'alice header' }, functions: { greet: '{return value="hi from alice"}' } },
  bob: {
    templates: { 'header.tpl': 'bob header', 'bob-only.tpl': 'bob secret' },
    functions: { greet: '{return value="hi from bob"}' },
  },
};
const perTenant: Pick<EngineOptions, 'templates' | 'functions'> = {
  templates: (name, identity) =>
    Object.hasOwn(STORES, identity.tenant) && Object.hasOwn(STORES[identity.tenant].templates, name)
      ? STORES[identity.tenant].templates[name]
      : null,
  functions: (key, identity) =>
    Object.hasOwn(STORES, identity.tenant) && Object.hasOwn(STORES[identity.tenant].functions, key)
      ? STORES[identity.tenant].functions[key]
      : null,
};
const PAGE = '{include file="header.tpl"}|{function name="greet" var=g}{$g}';
const BIG = `{*${'x'.repeat(INLINE_MAX_CHARS)}*}${PAGE}`;

async function withEngine(opts: EngineOptions, run: (e: Engine) => Promise<void>): Promise<void> {
  const e = createEngine({ workers: 0, ...opts });
  try {
    await run(e);
  } finally {
    await e.close();
  }
}

describe('lookups per tenant', () => {
  it.each([0, 1])(
    'gives two tenants with same-named includes and functions their own, through the cache, inline and on the compile thread (workers: %i)',
    async (workers) => {
      await withEngine({ ...perTenant, workers }, async (e) => {
        for (const source of [PAGE, BIG]) {
          // Alternating, so that each render after the first two could reuse the other tenant's compile.
          for (const tenant of ['alice', 'bob', 'alice', 'bob', 'alice']) {
            const r = await e.render(source, { name: 'page.tpl', identity: { tenant } });
            expect(r.output).toBe(`${tenant} header|hi from ${tenant}`);
          }
        }
        // Both at once: the compile of one is never handed to the other.
        const [a, b] = await Promise.all([
          e.render(`${BIG} `, { identity: { tenant: 'alice' } }),
          e.render(`${BIG} `, { identity: { tenant: 'bob' } }),
        ]);
        expect([a.output, b.output]).toEqual(['alice header|hi from alice ', 'bob header|hi from bob ']);
      });
    },
  );

  it('passes the whole render identity to every lookup', async () => {
    const seen: RenderIdentity[] = [];
    const templates = (name: string, identity: RenderIdentity) => {
      seen.push(identity);
      return 'x';
    };
    await withEngine({ templates }, async (e) => {
      await e.render('{include file="a.tpl"}', {
        identity: { tenant: 't', memberId: 7, superUser: true, context: 'batch', requestId: 'r1' },
      });
      expect(seen).toEqual([{ tenant: 't', memberId: 7, superUser: true, context: 'batch', requestId: 'r1' }]);
    });
  });

  it("a tenant cannot include another tenant's template by any name", async () => {
    await withEngine(perTenant, async (e) => {
      const names = [
        'bob-only.tpl',
        '../bob/bob-only.tpl',
        'bob/bob-only.tpl',
        'bob:bob-only.tpl',
        'bob\u0000bob-only.tpl',
        '/bob-only.tpl',
        'BOB-ONLY.TPL',
        'bob-only.tpl ',
      ];
      for (const name of names) {
        for (const head of ['', `{*${'x'.repeat(INLINE_MAX_CHARS)}*}`]) {
          const err = await templateError(
            e.render(`${head}{include file=${JSON.stringify(name)}}`, { identity: { tenant: 'alice' } }),
          );
          expect(err.code).toBe('E_INCLUDE_NOT_FOUND');
        }
      }
      // bob renders the same source first: alice must not get his compile from the cache.
      const source = '{include file="bob-only.tpl"}';
      expect((await e.render(source, { name: 'p.tpl', identity: { tenant: 'bob' } })).output).toBe('bob secret');
      expect((await templateError(e.render(source, { name: 'p.tpl', identity: { tenant: 'alice' } }))).code).toBe(
        'E_INCLUDE_NOT_FOUND',
      );
      // Tenant and template names cannot be run together into another tenant's cache entry.
      expect((await templateError(e.render(source, { name: 'p.tpl', identity: { tenant: 'bo' } }))).code).toBe(
        'E_INCLUDE_NOT_FOUND',
      );
      expect((await templateError(e.render(source, { name: 'bp.tpl', identity: { tenant: 'bo' } }))).code).toBe(
        'E_INCLUDE_NOT_FOUND',
      );
    });
  });

  it('a Record is shared by every tenant, and only its own keys are templates', async () => {
    await withEngine({ templates: { 'shared.tpl': 'shared' }, functions: { f: '{return value="f"}' } }, async (e) => {
      for (const tenant of ['alice', 'bob'])
        expect((await e.render('{include file="shared.tpl"}', { identity: { tenant } })).output).toBe('shared');
      for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
        expect((await templateError(e.render(`{include file="${name}"}`))).code).toBe('E_INCLUDE_NOT_FOUND');
        expect((await templateError(e.render(`{function name="${name}" var=v}`))).code).toBe('E_FUNCTION_NOT_FOUND');
      }
    });
  });

  it('a template named "function:f" is not the custom function f', async () => {
    const templates = { 'function:f': 'the template' };
    await withEngine({ templates, functions: { f: '{return value="the function"}' } }, async (e) => {
      const r = await e.render('{include file="function:f"}|{function name="f" var=v}{$v}');
      expect(r.output).toBe('the template|the function');
    });
  });

  it('recompiles for a tenant when its lookup answers differently', async () => {
    let version = 1;
    await withEngine({ templates: (name, identity) => `${identity.tenant} v${version}` }, async (e) => {
      for (const source of ['{include file="a.tpl"}', `{*${'x'.repeat(INLINE_MAX_CHARS)}*}{include file="a.tpl"}`]) {
        version = 1;
        expect((await e.render(source, { identity: { tenant: 'alice' } })).output).toBe('alice v1');
        version = 2;
        expect((await e.render(source, { identity: { tenant: 'alice' } })).output).toBe('alice v2');
      }
    });
  });
});
