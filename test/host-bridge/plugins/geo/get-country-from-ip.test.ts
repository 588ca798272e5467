/**
 * `{$ip|getCountryFromIP}` through the real engine and bridge: the first host modifier. The
 * quota counts its calls, an array maps per element (one call each), a host without `geo` gives
 * the capability error, and errors never echo the address or a host path.
 */
import { describe, expect, it } from 'vitest';
import { testEngine } from '../../../support/engine.js';
import { testHost } from '../../../support/test-host.js';
import { geoTestAdapter } from '../../../support/host/geo.js';
import { createBridge } from '../../../../src/bridge/bridge.js';
import { DEFAULT_LIMITS } from '../../../../src/sandbox/limits.js';
import type { GeoAdapter } from '../../../../src/host-api/host.js';
import type { RenderIdentity } from '../../../../src/host-api/host.js';

const fixture = geoTestAdapter().geo!;
/** What the geo adapter does in the current test; every question is recorded. */
let geo: GeoAdapter = fixture;
const asked: string[] = [];
const switchable: GeoAdapter = {
  countryOf(ip) {
    asked.push(ip);
    return geo.countryOf(ip);
  },
};

const engine = testEngine({ host: { ...testHost(), geo: switchable }, limits: { maxHostCalls: 3 } });
const bare = testEngine({ host: {}, workers: 0 });

async function failure(p: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await p;
  } catch (e) {
    return { code: (e as { code: string }).code, message: (e as Error).message };
  }
  throw new Error('the render did not fail');
}

function fresh(adapter: GeoAdapter = fixture): void {
  geo = adapter;
  asked.length = 0;
}

describe('getCountryFromIP through the engine', () => {
  it('answers from the host, and maps over an array one call per element, keys kept', async () => {
    fresh();
    const r = await engine.render('{foreach from=$ips|getCountryFromIP key=k item=c}{$k}={$c};{/foreach}', {
      vars: { ips: { a: '5.10.0.1', b: '10.0.0.1', c: '2a00:1000::5' } },
    });
    expect(r.output).toBe('a=JP;b=;c=GB;');
    expect(asked).toEqual(['5.10.0.1', '2a00:1000::5']);
  });

  it('counts every call against the bridge quota (maxHostCalls = 3)', async () => {
    fresh();
    const four = { vars: { ips: ['5.10.0.1', '5.10.0.2', '5.10.0.3', '5.10.0.4'] } };
    expect((await failure(engine.render('{$ips|getCountryFromIP|@count}', four))).code).toBe('E_BRIDGE_QUOTA');
    expect(
      (await failure(engine.render('{foreach from=$ips item=ip}{$ip|getCountryFromIP}{/foreach}', four))).code,
    ).toBe('E_BRIDGE_QUOTA');
    // Addresses that need no lookup still cross the bridge: the host decides, so they count too.
    expect(
      (await failure(engine.render('{$ips|getCountryFromIP|@count}', { vars: { ips: ['a', 'b', 'c', 'd'] } }))).code,
    ).toBe('E_BRIDGE_QUOTA');
    expect((await engine.render('{$ips|getCountryFromIP|@count}', { vars: { ips: ['a', 'b', 'c'] } })).output).toBe(
      '3',
    );
  });

  it('asks the adapter only about global addresses, IPv4-mapped IPv6 as IPv4', async () => {
    fresh();
    const ips = [
      '10.0.0.1',
      '192.0.2.1',
      '::1',
      'fe80::1',
      '::ffff:10.0.0.1',
      '2001:db8::1',
      'abc',
      '::ffff:5.10.0.7',
      '5.10.0.1',
    ];
    const r = await engine.render('{foreach from=$ips item=ip}[{$ip|getCountryFromIP}]{/foreach}', {
      vars: { ips: ips.slice(0, 3) },
    });
    const r2 = await engine.render('{foreach from=$ips item=ip}[{$ip|getCountryFromIP}]{/foreach}', {
      vars: { ips: ips.slice(3, 6) },
    });
    const r3 = await engine.render('{foreach from=$ips item=ip}[{$ip|getCountryFromIP}]{/foreach}', {
      vars: { ips: ips.slice(6) },
    });
    expect(r.output + r2.output + r3.output).toBe('[][][][][][][][JP][JP]');
    expect(asked).toEqual(['5.10.0.7', '5.10.0.1']);
  });

  it("null gives '', numbers and booleans are their string form (never an address); an array with @ is null and a warning", async () => {
    fresh();
    const r = await engine.render('[{$missing|getCountryFromIP}][{$n|getCountryFromIP}][{$f|getCountryFromIP}]', {
      vars: { n: 84017153, f: 5.1 },
    });
    expect(r.output).toBe('[][][]');
    expect(r.warnings).toEqual([]);
    const t = await engine.render(
      '{assign var=c value=$ips|@getCountryFromIP}{if is_null($c)}null{/if}|{$t|getCountryFromIP}|',
      { vars: { ips: ['5.10.0.1'], t: true } },
    );
    expect(t.output).toBe('null||');
    expect(t.warnings).toEqual([
      'getCountryFromIP(): Argument #1 ($ip) must be of type string, array given; the result is null',
    ]);
    expect(asked).toEqual([]);
  });

  it("normalises what the adapter says: two letters upper-cased, anything else ''", async () => {
    const answers: Record<string, string | null> = { '5.10.0.1': 'us', '5.10.0.2': 'ZZ', '5.10.0.3': 'USA' };
    fresh({ countryOf: async (ip) => answers[ip] ?? null });
    const r = await engine.render('{foreach from=$ips item=ip}[{$ip|getCountryFromIP}]{/foreach}', {
      vars: { ips: Object.keys(answers) },
    });
    expect(r.output).toBe('[US][][]');
  });

  it('an adapter failure is E_HOST_FAILED, naming neither the address nor a host path', async () => {
    fresh({
      countryOf: async (ip) => {
        throw Object.assign(new Error(`/srv/geoip/GeoLite2-Country.mmdb: lookup of ${ip} failed`), { code: 'ENOENT' });
      },
    });
    const f = await failure(engine.render('{$ip|getCountryFromIP}', { vars: { ip: '5.10.0.99' } }));
    expect(f).toEqual({ code: 'E_HOST_FAILED', message: 'the modifier getCountryFromIP failed on the host' });
  });

  it('a host without geo gives the capability error, whatever the address', async () => {
    for (const ip of ['5.10.0.1', 'not an address']) {
      const f = await failure(bare.render('{$ip|getCountryFromIP}', { vars: { ip } }));
      expect(f.code).toBe('E_HOST_CAPABILITY');
      expect(f.message).toBe(
        'the modifier getCountryFromIP needs the host adapter HostAdapters.geo, which this host was not given (createEngine({ host: { geo } }))',
      );
    }
  });

  it('compiles like any modifier (extra arguments are not a compile error); the host refuses arguments it does not declare', async () => {
    fresh();
    const f = await failure(engine.render("{'5.10.0.1'|getCountryFromIP:1}"));
    expect(f.code).toBe('E_BAD_ATTRIBUTE');
    expect(f.message).toBe('the modifier getCountryFromIP takes at most 0 argument(s)');
    expect(asked).toEqual([]);
  });
});

describe('the bridge checks what the isolate sends', () => {
  const identity: RenderIdentity = {
    tenant: 'default',
    memberId: null,
    superUser: false,
    context: 'web',
    requestId: 'r',
  };
  /** A host modifier call as the isolate sends it: kind 'modifier', then the name, input and args as JSON. */
  const call = async (name: string, request: object, limits = DEFAULT_LIMITS) => {
    const { handler } = createBridge({ geo: fixture }, identity, limits);
    return JSON.parse(await handler('modifier', JSON.stringify({ name, ...request }))) as Record<string, unknown>;
  };

  it('answers a well-formed call with the value', async () => {
    expect(await call('getCountryFromIP', { input: '5.10.0.1', args: [] })).toEqual({ ok: true, value: 'JP' });
  });

  it.each([
    ['an array as input', { input: { a: [[0, '5.10.0.1']] }, args: [] }, 'E_BAD_ATTRIBUTE'],
    ['a boolean as input', { input: true, args: [] }, 'E_BAD_ATTRIBUTE'],
    ['null as input', { input: null, args: [] }, 'E_BAD_ATTRIBUTE'],
    ['no input', { args: [] }, 'E_BAD_ATTRIBUTE'],
    ['args not a list', { input: '5.10.0.1', args: {} }, 'E_BAD_ATTRIBUTE'],
    ['an extra argument', { input: '5.10.0.1', args: [1] }, 'E_BAD_ATTRIBUTE'],
    ['a malformed value', { input: { x: 1 }, args: [] }, 'E_BAD_ATTRIBUTE'],
    ['a string over 1 MiB', { input: 'x'.repeat(1024 * 1024 + 1), args: [] }, 'E_BAD_ATTRIBUTE'],
  ])('refuses %s', async (_what, request, code) => {
    expect(((await call('getCountryFromIP', request)).error as { code: string }).code).toBe(code);
  });

  it('refuses pure modifiers, unknown names and prototype names as host modifiers', async () => {
    for (const name of ['strlen', 'nope', '__proto__', 'constructor']) {
      expect((await call(name, { input: 'x', args: [] })).error).toEqual({
        code: 'E_PLUGIN_DENIED',
        message: `the modifier ${name} is not a host modifier`,
      });
    }
  });

  it('refuses a call of no known kind, and a call without a name', async () => {
    const { handler } = createBridge({ geo: fixture }, identity, DEFAULT_LIMITS);
    expect(
      JSON.parse(
        await handler('|getCountryFromIP', JSON.stringify({ name: 'getCountryFromIP', input: '5.10.0.1', args: [] })),
      ).error.code,
    ).toBe('E_PLUGIN_DENIED');
    expect(JSON.parse(await handler('modifier', JSON.stringify({ input: '5.10.0.1', args: [] }))).error.code).toBe(
      'E_BAD_ATTRIBUTE',
    );
  });

  it('counts modifier calls with plugin calls in one quota', async () => {
    const { handler } = createBridge({ geo: fixture }, identity, { ...DEFAULT_LIMITS, maxHostCalls: 2 });
    const req = JSON.stringify({ name: 'getCountryFromIP', input: '5.10.0.1', args: [] });
    expect(JSON.parse(await handler('modifier', req))).toEqual({ ok: true, value: 'JP' });
    expect(JSON.parse(await handler('tag', '{"name":"sleep","attrs":{"ms":100}}')).error).toBeUndefined();
    expect(JSON.parse(await handler('modifier', req)).error.code).toBe('E_BRIDGE_QUOTA');
  });
});
