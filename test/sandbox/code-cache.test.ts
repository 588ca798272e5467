/**
 * The templates' code cache (src/sandbox/code-cache.ts): a template's code compiled in a second
 * isolate comes from the cache the first made, and a cache that is not the code's own (another
 * text's, a corrupt one, one V8 rejects) is refused: the code is compiled from its text and runs as
 * itself.
 */
import ivm from 'isolated-vm';
import { afterEach, describe, expect, it } from 'vitest';
import { TemplateCodeCache, templateCodeCache } from '../../src/sandbox/code-cache.js';
import { IsolateHost, SparePool } from '../../src/sandbox/isolate-host.js';
import { DEFAULT_LIMITS } from '../../src/sandbox/limits.js';
import { renderRequest } from '../../src/sandbox/request.js';
import { compile } from '../../src/compiler/index.js';

const isolates: ivm.Isolate[] = [];
afterEach(() => {
  for (const i of isolates.splice(0)) if (!i.isDisposed) i.dispose();
});

function isolate(): ivm.Isolate {
  const i = new ivm.Isolate({ memoryLimit: 16 });
  isolates.push(i);
  return i;
}

/** What `code` (a script that sets `r`) sets, compiled through `cache` in a new isolate. */
function run(cache: TemplateCodeCache, code: string): unknown {
  const i = isolate();
  const context = i.createContextSync();
  cache.compile(i, code, 'test.js').runSync(context);
  return context.global.getSync('r', { copy: true });
}

/** Two scripts of the same length: V8 alone would take the cache of one for the other. */
const A = 'globalThis.r = (function (n) { return "A" + n; })(1);';
const B = 'globalThis.r = (function (n) { return "B" + n; })(2);';

/** A cache holding the entry of `code`, made as a miss makes it. */
async function cacheOf(code: string): Promise<TemplateCodeCache> {
  const cache = new TemplateCodeCache();
  expect(run(cache, code)).toBeDefined();
  await cache.settled();
  expect(cache.entry(code)).toBeDefined();
  return cache;
}

describe('the templates code cache', () => {
  it('a miss compiles from the text and makes the entry; the next isolate compiles from it', async () => {
    const cache = await cacheOf(A);
    expect(cache.stats()).toMatchObject({ hits: 0, misses: 1, refused: 0, entries: 1 });
    expect(run(cache, A)).toBe('A1');
    expect(cache.stats()).toMatchObject({ hits: 1, misses: 1, refused: 0, entries: 1 });
  });

  it("makes the entry in an isolate of its own: the tenant's may be gone meanwhile", async () => {
    const cache = new TemplateCodeCache();
    const tenant = isolate();
    cache.compile(tenant, A, 'test.js');
    tenant.dispose();
    await cache.settled();
    expect(cache.entry(A)).toBeDefined();
    expect(run(cache, A)).toBe('A1');
    expect(cache.stats()).toMatchObject({ hits: 1, misses: 1 });
  });

  it("another text's entry is refused, even of the same length, and the code runs as itself", async () => {
    expect(A.length).toBe(B.length);
    const cache = await cacheOf(A);
    cache.add(B, cache.entry(A)!);
    expect(run(cache, B)).toBe('B2');
    expect(cache.stats()).toMatchObject({ hits: 0, refused: 1, entries: 1 });
    expect(cache.entry(B)).toBeUndefined();
  });

  it('a corrupt entry is refused before V8 sees it (V8 checks no payload checksum in release builds)', async () => {
    const cache = await cacheOf(A);
    const entry = cache.entry(A)!;
    const bytes = entry.bytes.slice();
    for (let i = bytes.length - 64; i < bytes.length; i++) bytes[i] ^= 0xff;
    cache.add(A, { bytes, digest: entry.digest });
    expect(run(cache, A)).toBe('A1');
    expect(cache.stats()).toMatchObject({ hits: 0, refused: 1, entries: 0 });
  });

  it('data V8 rejects (its digest sound) falls back to the text and is dropped', async () => {
    const cache = await cacheOf(A);
    const { digest: _, ...rest } = cache.entry(A)!;
    const bytes = rest.bytes.slice();
    bytes.fill(0x5a, 0, 32); // V8's header: magic number, version and flags hashes
    const { createHash } = await import('node:crypto');
    const digest = createHash('sha256').update(A).update('\0').update(bytes).digest();
    cache.add(A, { bytes, digest });
    expect(run(cache, A)).toBe('A1');
    expect(cache.stats()).toMatchObject({ hits: 0, refused: 1, entries: 0 });
  });

  it('holds at most maxBytes, dropping the least recently used', async () => {
    const one = (await cacheOf(A)).entry(A)!;
    const cache = new TemplateCodeCache(one.bytes.byteLength * 2 + 1);
    cache.add('x', one);
    cache.add('y', one);
    expect(cache.entry('x')).toBeDefined(); // not a use: x stays the oldest
    cache.add('z', one);
    expect(cache.entry('x')).toBeUndefined();
    expect(cache.stats()).toMatchObject({ entries: 2, bytes: one.bytes.byteLength * 2 });
  });

  it("a tenant's render through an isolate whose template came from the cache shows its own data only", async () => {
    const r = compile('{$who}:{foreach from=$items item=i}{$i|upper}{/foreach}', { name: 'cc.tpl', id: 'cc.tpl' });
    const t = { id: 'cc.tpl', code: r.code, filename: 'cc.js', hostFree: true };
    const render = async (vars: Record<string, unknown>) => {
      const h = new IsolateHost(128);
      try {
        const request = renderRequest({
          templateName: 'cc.tpl',
          now: 1700000000,
          site: { timezone: 'UTC', lang: 'en', rootUrl: 'http://localhost' },
          vars,
          seed: Array.from({ length: 16 }, () => 3),
        });
        return (await h.render(t, request, DEFAULT_LIMITS, null)).output;
      } finally {
        h.retire();
      }
    };
    expect(await render({ who: 'first', items: ['a', 'b'] })).toBe('first:AB');
    await templateCodeCache.settled();
    const hits = templateCodeCache.stats().hits;
    expect(await render({ who: 'second', items: ['c'] })).toBe('second:C');
    expect(templateCodeCache.stats().hits).toBe(hits + 1);
  });

  it("a tenant's first render on a taken spare compiles on the isolate's thread; its later new templates take the cache", async () => {
    const template = (id: string) => ({
      id,
      code: compile(`${id}:{$who|upper}`, { name: id, id }).code,
      filename: `${id}.js`,
      hostFree: true,
    });
    const request = (id: string) =>
      renderRequest({
        templateName: id,
        now: 1700000000,
        site: { timezone: 'UTC', lang: 'en', rootUrl: 'http://localhost' },
        vars: { who: 'me' },
        seed: Array.from({ length: 16 }, () => 3),
      });
    const spares = new SparePool();
    try {
      spares.prepare(128);
      await new Promise((r) => setTimeout(r, 20));
      const host = spares.acquire(128);
      await host.warmingUp();
      const asked = () => templateCodeCache.stats().hits + templateCodeCache.stats().misses;
      const before = asked();
      expect((await host.render(template('first'), request('first'), DEFAULT_LIMITS, null)).output).toBe('first:ME');
      expect(asked()).toBe(before);
      expect((await host.render(template('second'), request('second'), DEFAULT_LIMITS, null)).output).toBe('second:ME');
      expect(asked()).toBe(before + 1);
      host.retire();
    } finally {
      await spares.close();
    }
  });
});
