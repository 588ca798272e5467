/**
 * {api_internal}, {api_mng}, {api_token}, {cookie}: the identity and combination rules, with
 * recording in-memory adapters (these plugins make no network requests of their own).
 */
import { describe, expect, it } from 'vitest';
import type { HostResolver, InternalApiRequest } from '../../../../src/host-api/host.js';
import { TemplateError } from '../../../../src/errors.js';
import { withAdapters } from '../../../../src/host-api/resolve.js';
import { hostStateOf } from '../../../../src/engine-internal.js';
import { testEngine } from '../../../support/engine.js';
import type { Engine, RenderOptions } from '../../../../src/index.js';

const calls: { tenant: string; req: InternalApiRequest }[] = [];
let failNext = false;
const jar = new Map<string, string>();
const tokens: {
  tenant: string;
  apiId: number;
  type: string;
  memberId: number | null;
  expiresSeconds: number | null;
  memo: string;
}[] = [];

const host: HostResolver = ({ tenant }) => ({
  secrets: {
    async get(name) {
      return tenant === 'default' && name === 'S' ? { value: 'secret-value-1', hosts: ['x.example'] } : null;
    },
  },
  members: {
    async isSuperUser(id) {
      return id === 1 || id === 2;
    },
  },
  internalApi: {
    async endpointMethod(endpoint) {
      if (tenant !== 'default') return null;
      return endpoint === '/rcms-api/1/get' ? 'GET' : endpoint === '/rcms-api/1/post' ? 'POST' : null;
    },
    async request(req) {
      calls.push({ tenant, req });
      if (failNext) {
        failNext = false;
        throw new Error('connection reset by internal peer 10.1.2.3');
      }
      if (req.endpoint === '/rcms-api/1/notjson') return { status: 200, body: 'plain' };
      if (req.endpoint === '/rcms-api/1/err') return { status: 500, body: '{"errors":["boom"]}' };
      return {
        status: 200,
        body: JSON.stringify({
          n: calls.length,
          endpoint: req.endpoint,
          query: req.query,
          actAs: req.actAs,
          kind: req.kind ?? 'api',
          list: { '1': 'a', '2': 'b' },
        }),
      };
    },
  },
  apiTokens: {
    async issue(req) {
      tokens.push({ tenant, ...req });
      return tenant === 'default' && req.apiId === 3
        ? { token: `tok-${req.type}-${req.memberId ?? 'none'}`, expiresAt: 1234 }
        : null;
    },
  },
  cookies: {
    async get(requestId, name) {
      return jar.get(`${tenant}|${requestId}|${name}`) ?? null;
    },
    async set(requestId, name, value) {
      jar.set(`${tenant}|${requestId}|${name}`, value);
    },
  },
});

const engine: Engine = testEngine({ host });

async function render(t: string, opts: RenderOptions = {}): Promise<string> {
  return (await engine.render(t, opts)).output;
}
async function code(t: string, opts: RenderOptions = {}): Promise<string> {
  try {
    await render(t, opts);
  } catch (e) {
    expect(e).toBeInstanceOf(TemplateError);
    return (e as TemplateError).code;
  }
  return 'rendered';
}

describe('{api_internal}', () => {
  it('decodes JSON into var (assoc arrays), status_var 1 for 2xx', async () => {
    expect(
      await render(
        '{api_internal endpoint="/rcms-api/1/get" query="a=1" var=r status_var=s}{$s}:{$r.endpoint}:{$r.query}:{$r.list.2}:{$r.kind}',
      ),
    ).toBe('1:/rcms-api/1/get:a=1:b:api');
    expect(
      await render('{api_internal endpoint="/rcms-api/1/notjson" var=r status_var=s}{$s}:{if $r === null}null{/if}'),
    ).toBe('1:null');
    expect(await render('{api_internal endpoint="/rcms-api/1/err" var=r status_var=s}{$s}:{$r.errors.0}')).toBe(
      '0:boom',
    );
  });

  it('a failing request sets status_var 0 and says nothing of the host error', async () => {
    failNext = true;
    const r = await engine.render('{api_internal endpoint="/rcms-api/1/get" var=r status_var=s}[{$s}]');
    expect(r.output).toBe('[0]');
    expect(JSON.stringify(r.logs)).not.toContain('10.1.2.3');
  });

  it('the tenant comes from the identity, never from attributes', async () => {
    const n = calls.length;
    await render('{api_internal endpoint="/rcms-api/1/get" var=r}', { identity: { tenant: 'b' } });
    expect(calls[n]!.tenant).toBe('b');
    expect(await code('{api_internal endpoint="/rcms-api/1/get" tenant="default"}')).toBe('E_UNKNOWN_ATTR');
  });

  it('member_id: an ordinary member is passed as actAs; super users never', async () => {
    expect(await render('{api_internal endpoint="/rcms-api/1/get" member_id=5 var=r}{$r.actAs}')).toBe('5');
    const n = calls.length;
    expect(await code('{api_internal endpoint="/rcms-api/1/get" member_id=1}')).toBe('E_IDENTITY_DENIED');
    expect(await code('{api_internal endpoint="/rcms-api/1/get" member_id=$m}', { vars: { m: '2' } })).toBe(
      'E_IDENTITY_DENIED',
    );
    expect(
      await code('{api_internal endpoint="/rcms-api/1/get" member_id=2}', {
        identity: { superUser: true, memberId: 9 },
      }),
    ).toBe('E_IDENTITY_DENIED');
    expect(await code('{api_internal endpoint="/rcms-api/1/get" member_id=0}')).toBe('E_BAD_ATTRIBUTE');
    // A variable is refused for an ordinary member before anything else (BR-01); a super user's value is type-checked.
    expect(await code('{api_internal endpoint="/rcms-api/1/get" member_id=$m}', { vars: { m: 'abc' } })).toBe(
      'E_IDENTITY_DENIED',
    );
    expect(
      await code('{api_internal endpoint="/rcms-api/1/get" member_id=$m}', {
        vars: { m: 'abc' },
        identity: { superUser: true, memberId: 9 },
      }),
    ).toBe('E_BAD_ATTRIBUTE');
    expect(calls.length).toBe(n);
  });

  it('member_id without the members capability is refused (fail closed)', async () => {
    const e = testEngine({ host: withAdapters(host, { members: undefined }) });
    await expect(e.render('{api_internal endpoint="/rcms-api/1/get" member_id=5}')).rejects.toMatchObject({
      code: 'E_IDENTITY_DENIED',
    });
  });

  it('direct: GET endpoints only, never with member_id (E_BAD_COMBINATION); unknown endpoint E_NOT_FOUND', async () => {
    expect(await render('{api_internal endpoint="/rcms-api/1/get" direct=true var=r status_var=s}{$s}')).toBe('1');
    expect(calls[calls.length - 1]!.req.direct).toBe(true);
    expect(await code('{api_internal endpoint="/rcms-api/1/get" direct=true member_id=5}')).toBe('E_BAD_COMBINATION');
    expect(await code('{api_internal endpoint="/rcms-api/1/post" direct=true}')).toBe('E_BAD_COMBINATION');
    expect(await code('{api_internal endpoint="/rcms-api/1/get" direct=true method="POST"}')).toBe('E_BAD_COMBINATION');
    expect(await code('{api_internal endpoint="/rcms-api/1/nope" direct=true}')).toBe('E_NOT_FOUND');
    expect(await code('{api_internal endpoint="/rcms-api/1/get" member_id=5 use_current_session=true}')).toBe(
      'E_BAD_COMBINATION',
    );
  });

  it('endpoint must be a plain path; secrets are refused', async () => {
    for (const ep of [
      'https://x.example/',
      '//x.example/a',
      '/a/../b',
      '/a/./b',
      'rcms-api/1',
      '/a b',
      '/a\\b',
      '/a#b',
    ]) {
      expect(await code('{api_internal endpoint=$e}', { vars: { e: ep } })).toBe('E_BAD_ATTRIBUTE');
    }
    expect(await code('{secret var=s key="S"}{api_internal endpoint="/rcms-api/1/get" query="k=`$s`"}')).toBe(
      'E_SECRET_DENIED',
    );
    expect(await code('{secret var=s key="S"}{api_internal endpoint="/rcms-api/1/`$s`"}')).toBe('E_SECRET_DENIED');
  });

  // D320: as for {api}, a list too long for any URL is refused before it is encoded.
  it('queries with more values than a URL can carry: E_BAD_URL, for api_mng too', async () => {
    const vars = { s: ','.repeat(2731) };
    for (const tag of ['api_internal', 'api_mng'])
      expect(
        await code(`{assign var=q value=","|explode:$s}{${tag} endpoint="/rcms-api/1/get" queries=$q}`, { vars }),
      ).toBe('E_BAD_URL');
    const before = calls.length;
    expect(
      await code('{assign var=q value=","|explode:$s}{api_internal endpoint="/rcms-api/1/get" queries=$q}', {
        vars: { s: ',,' },
      }),
    ).toBe('rendered');
    expect(calls.at(-1)!.req.query).toBe('0=&1=&2=');
    expect(calls.length).toBe(before + 1);
  });

  it('cache_time: GET without member_id only, keyed by tenant and caller', async () => {
    hostStateOf(engine).internalCache.clear();
    const t = '{api_internal endpoint="/rcms-api/1/get" query="c=1" cache_time=5 var=r}{$r.n}';
    const a = await render(t);
    expect(await render(t)).toBe(a);
    expect(await render(t, { identity: { tenant: 'b' } })).not.toBe(a);
    expect(await render(t, { identity: { memberId: 44 } })).not.toBe(a);
    const m = '{api_internal endpoint="/rcms-api/1/get" member_id=5 cache_time=5 var=r}{$r.n}';
    expect(await render(m)).not.toBe(await render(m));
    // The session may change within a render ({login}): its answers are never shared.
    const s = '{api_internal endpoint="/rcms-api/1/get" use_current_session=true cache_time=5 var=r}{$r.n}';
    expect(await render(s)).not.toBe(await render(s));
  });

  it("passes the calling render's request id, for the session and the nesting", async () => {
    await render('{api_internal endpoint="/rcms-api/1/get" use_current_session=true}', {
      identity: { requestId: 'req-42' },
    });
    expect(calls[calls.length - 1]!.req).toMatchObject({ requestId: 'req-42', useCurrentSession: true });
  });
});

describe('{api_mng}', () => {
  it('goes to the management API with Accept: application/json', async () => {
    expect(await render('{api_mng endpoint="/management/x/" var=r status_var=s}{$s}:{$r.kind}')).toBe('1:management');
    expect(calls[calls.length - 1]!.req.headers).toContainEqual(['Accept', 'application/json']);
    expect(await code('{api_mng endpoint="/management/x/" member_id=1}')).toBe('E_IDENTITY_DENIED');
    expect(await code('{api_mng endpoint="/management/x/" direct=true}')).toBe('E_UNKNOWN_ATTR');
  });
});

describe('{api_token}', () => {
  it('static and dynamic tokens; member from the identity; one error for missing/other/wrong type', async () => {
    expect(
      await render('{api_token var=t type="static" api_id=3 expires_var=e}{$t} {$e}', { identity: { memberId: 8 } }),
    ).toBe('tok-static-none 1234');
    expect(await render('{api_token var=t type="dynamic" api_id=3}{$t}', { identity: { memberId: 8 } })).toBe(
      'tok-dynamic-8',
    );
    expect(tokens[tokens.length - 1]!.memo).toBe('Generated by Smarty api_token plugin');
    expect(await code('{api_token var=t type="static" api_id=4}')).toBe('E_PERMISSION_DENIED');
    expect(await code('{api_token var=t type="static" api_id=3}', { identity: { tenant: 'b' } })).toBe(
      'E_PERMISSION_DENIED',
    );
    expect(await code('{api_token var=t type="other" api_id=3}')).toBe('E_BAD_ATTR');
    expect(await code('{api_token var=t type="static" api_id=3 expires=2592001}')).toBe('E_BAD_ATTRIBUTE');
  });
});

describe('{cookie}', () => {
  const id = (requestId: string, extra: Partial<RenderOptions['identity']> = {}): RenderOptions => ({
    identity: { requestId, ...extra },
  });

  it('set, get, overwrite=0, whole store, arrays; JSON in the jar', async () => {
    expect(
      await render(
        '{cookie key="a" value="1"}{cookie key="a" value="2" overwrite=0}{assign_array var=v values="x,y"}{cookie key="b" value=$v}{cookie var=a key="a"}{cookie var=b key="b"}{cookie var=all}{$a}:{$b.1}:{$all|@count}',
        id('c1'),
      ),
    ).toBe('1:y:2');
    expect(jar.get('default|c1|rcms_api_local')).toBe('{"a":"1","b":["x","y"]}');
    expect(await render('{cookie var=a key="a"}[{$a}]', id('c1'))).toBe('[1]');
    expect(await render('{cookie var=a key="a"}[{$a}]', id('c1', { tenant: 'b' }))).toBe('[]');
  });

  it('a browser-sent value that is not a JSON object reads as an empty store', async () => {
    jar.set('default|c2|rcms_api_local', '{"a":');
    expect(await render('{cookie var=all}{$all|@count}', id('c2'))).toBe('0');
    jar.set('default|c3|rcms_api_local', '"str"');
    expect(await render('{cookie key="k" value="v"}{cookie var=all}{$all|@count}', id('c3'))).toBe('1');
  });

  it('key grammar, entry count and size caps, secrets', async () => {
    for (const k of ['__proto__', 'constructor', '1', 'a.b', 'a b', 'x'.repeat(65)])
      expect(await code('{cookie key=$k value="x"}', { ...id('c4'), vars: { k } })).toBe('E_BAD_ATTRIBUTE');
    expect(
      await code('{section name=i loop=31}{cookie key="k`$smarty.section.i.index`" value="x"}{/section}', id('c5')),
    ).toBe('E_QUOTA');
    expect(await code('{cookie key="big" value=$v}', { ...id('c6'), vars: { v: 'é'.repeat(700) } })).toBe(
      'E_SIZE_LIMIT',
    );
    expect(await code('{secret var=s key="S"}{cookie key="k" value=$s}', id('c7'))).toBe('E_SECRET_DENIED');
    expect(await code('{cookie key="k"}', id('c8'))).toBe('E_BAD_ATTRIBUTE');
  });

  it('in a batch the store is empty and writes are ignored', async () => {
    jar.set('default|c9|rcms_api_local', '{"a":"1"}');
    expect(await render('{cookie key="b" value="2"}{cookie var=a key="a"}[{$a}]', id('c9', { context: 'batch' }))).toBe(
      '[]',
    );
    expect(jar.get('default|c9|rcms_api_local')).toBe('{"a":"1"}');
  });
});
