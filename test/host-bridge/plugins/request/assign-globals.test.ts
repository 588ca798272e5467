/**
 * {assign_globals}: values kept in the embedding process between the renders of one request,
 * capped per request, per tenant and per process, dropped when the request ends or idles
 * (src/bridge/request-globals.ts).
 */
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_REQUEST_GLOBALS,
  ENTRY_OVERHEAD,
  REQUEST_OVERHEAD,
  RequestGlobals,
} from '../../../../src/bridge/request-globals.js';
import { BridgeError } from '../../../../src/host-api/errors.js';
import { PhpArray } from '../../../../src/value/value.js';
import { templateError, testEngine } from '../../../support/engine.js';
import { hostStateOf } from '../../../../src/engine-internal.js';

const quota = (f: () => void): string => {
  try {
    f();
  } catch (e) {
    if (e instanceof BridgeError) return e.code;
    throw e;
  }
  return 'stored';
};

/** Characters one entry of `chars` value characters costs in a request that already exists. */
const entry = (key: string, valueChars: number) => key.length + valueChars + 2 + ENTRY_OVERHEAD;

describe('RequestGlobals', () => {
  it('keeps values per tenant and request, as their transfer form', () => {
    const g = new RequestGlobals();
    g.scope('t1', 'r1').set(
      'k',
      PhpArray.fromEntries([
        ['a', 1],
        [5, 'x'],
      ]),
    );
    expect(g.scope('t1', 'r1').get('k')).toEqual(
      PhpArray.fromEntries([
        ['a', 1],
        [5, 'x'],
      ]),
    );
    expect(g.scope('t1', 'r2').get('k')).toBe(null);
    expect(g.scope('t2', 'r1').get('k')).toBe(null);
    expect(g.usage('t1')).toBe(
      REQUEST_OVERHEAD +
        'k'.length +
        JSON.stringify({
          a: [
            ['a', 1],
            [5, 'x'],
          ],
        }).length +
        ENTRY_OVERHEAD,
    );
  });

  it('reads create nothing', () => {
    const g = new RequestGlobals();
    for (let i = 0; i < 100; i++) expect(g.scope('t', `r${i}`).get('k')).toBe(null);
    expect(g.size).toBe(0);
    expect(g.usage()).toBe(0);
  });

  it('a request is capped: E_QUOTA past maxRequestChars; replacing a value counts the difference', () => {
    const g = new RequestGlobals({ maxRequestChars: 2000 });
    const s = g.scope('t', 'r');
    s.set('a', 'x'.repeat(1000));
    expect(quota(() => s.set('b', 'x'.repeat(1000)))).toBe('E_QUOTA');
    // The refused store changed nothing.
    expect(g.usage('t')).toBe(REQUEST_OVERHEAD + entry('a', 1000));
    s.set('a', 'y'.repeat(1200));
    expect(g.usage('t')).toBe(REQUEST_OVERHEAD + entry('a', 1200));
    s.delete('a');
    expect(g.usage('t')).toBe(REQUEST_OVERHEAD);
    expect(quota(() => s.set('b', 'x'.repeat(1000)))).toBe('stored');
  });

  it('keys per request are capped', () => {
    const g = new RequestGlobals({ maxKeys: 3 });
    const s = g.scope('t', 'r');
    for (const k of ['a', 'b', 'c']) s.set(k, 1);
    expect(quota(() => s.set('d', 1))).toBe('E_QUOTA');
    expect(quota(() => s.set('a', 2))).toBe('stored');
  });

  it('a tenant is capped across its requests, and other tenants are not affected', () => {
    const g = new RequestGlobals({ maxRequestChars: 2500, maxTenantChars: 5000 });
    let stored = 0;
    for (let i = 0; i < 10; i++)
      if (quota(() => g.scope('t', `r${i}`).set('k', 'x'.repeat(1500))) === 'stored') stored++;
    expect(stored).toBe(Math.floor(5000 / (REQUEST_OVERHEAD + entry('k', 1500))));
    expect(g.usage('t')).toBeLessThanOrEqual(5000);
    expect(quota(() => g.scope('other', 'r0').set('k', 'x'.repeat(1500)))).toBe('stored');
    // Ending a request frees its share.
    g.endRequest('t', 'r0');
    expect(quota(() => g.scope('t', 'r-new').set('k', 'x'.repeat(1500)))).toBe('stored');
  });

  it('the process total is capped; nothing is evicted for it', () => {
    const g = new RequestGlobals({ maxRequestChars: 2500, maxTenantChars: 4000, maxTotalChars: 6500 });
    const results = ['a', 'b', 'c', 'd'].map((t) => quota(() => g.scope(t, 'r').set('k', 'x'.repeat(1500))));
    expect(results).toEqual(['stored', 'stored', 'stored', 'E_QUOTA']);
    expect(g.scope('a', 'r').get('k')).toBe('x'.repeat(1500));
    expect(g.usage()).toBeLessThanOrEqual(6500);
  });

  it('unset clears one key or the whole request', () => {
    const g = new RequestGlobals();
    const s = g.scope('t', 'r');
    s.set('a', 1);
    s.set('b', 2);
    s.clear();
    expect(s.get('a')).toBe(null);
    expect(g.usage()).toBe(0);
    expect(g.size).toBe(0);
  });

  it('a request idle for idleMs is dropped; use keeps it', () => {
    let now = 1000;
    const g = new RequestGlobals({ idleMs: 60_000, now: () => now });
    g.scope('t', 'old').set('k', 'v');
    g.scope('t', 'used').set('k', 'v');
    now += 40_000;
    expect(g.scope('t', 'used').get('k')).toBe('v');
    now += 30_000;
    expect(g.scope('t', 'old').get('k')).toBe(null);
    expect(g.scope('t', 'used').get('k')).toBe('v');
    expect(g.size).toBe(1);
    now += 60_001;
    expect(g.usage('t')).toBe(0);
  });
});

describe('{assign_globals} through the engine', () => {
  const engine = testEngine();

  it('renders of one request share values; endRequest drops them', async () => {
    const identity = { tenant: 'ag1', requestId: 'req-1' };
    await engine.render('{assign_globals key="k" value=$v}', { identity, vars: { v: { x: 42 } } });
    expect((await engine.render('{assign_globals var=got key="k"}{$got.x}', { identity })).output).toBe('42');
    expect(hostStateOf(engine).requestGlobals.usage('ag1')).toBeGreaterThan(0);
    engine.endRequest(identity);
    expect(hostStateOf(engine).requestGlobals.usage('ag1')).toBe(0);
    expect((await engine.render('{assign_globals var=got key="k"}[{$got}]', { identity })).output).toBe('[]');
  });

  it("a render without a request id of the embedder's leaves nothing behind", async () => {
    const r = await engine.render('{assign_globals key="k" value="v"}{assign_globals var=got key="k"}{$got}', {
      identity: { tenant: 'ag2' },
    });
    expect(r.output).toBe('v');
    expect(hostStateOf(engine).requestGlobals.usage('ag2')).toBe(0);
  });

  it('a value over the request cap: E_QUOTA at the {assign_globals} line', async () => {
    const e = await templateError(
      engine.render('{assign var=v value=""|str_pad:1100000:"x"}\n{assign_globals key="k" value=$v}', {
        name: 'g.tpl',
        identity: { tenant: 'ag3', requestId: 'r' },
      }),
    );
    expect(e.code).toBe('E_QUOTA');
    expect(e.line).toBe(2);
    expect(hostStateOf(engine).requestGlobals.usage('ag3')).toBe(0);
  });

  it('fresh request ids of one tenant are refused past the tenant cap', async () => {
    const tenant = 'ag4';
    const codes: string[] = [];
    try {
      for (let i = 0; i < 10; i++) {
        const r = await engine
          .render('{assign var=v value=""|str_pad:1000000:"x"}{assign_globals key="k" value=$v}ok', {
            identity: { tenant, requestId: `r${i}` },
          })
          .then(
            (x) => x.output,
            (e: { code?: string }) => e.code ?? 'thrown',
          );
        codes.push(r);
      }
      const fit = Math.floor(DEFAULT_REQUEST_GLOBALS.maxTenantChars / (REQUEST_OVERHEAD + entry('k', 1_000_000)));
      expect(codes).toEqual([...Array(fit).fill('ok'), ...Array(10 - fit).fill('E_QUOTA')]);
      expect(hostStateOf(engine).requestGlobals.usage(tenant)).toBeLessThanOrEqual(
        DEFAULT_REQUEST_GLOBALS.maxTenantChars,
      );
    } finally {
      for (let i = 0; i < 10; i++) engine.endRequest({ tenant, requestId: `r${i}` });
    }
    expect(hostStateOf(engine).requestGlobals.usage(tenant)).toBe(0);
  });
});
