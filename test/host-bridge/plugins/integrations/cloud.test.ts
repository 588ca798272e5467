/**
 * cloudfn_token and cloudpubsub_publish against the test host's token endpoint and
 * publish/subscribe API: the assertion is an RS256 JWT of the service account, checked here with
 * jose against the key's public half; the ID token is the endpoint's; the publish carries the
 * endpoint's access token and the message as base64 data.
 */
import { describe, expect, it } from 'vitest';
import { decodeJwt, importSPKI, jwtVerify } from 'jose';
import { testEngine } from '../../../support/engine.js';
import { testHost } from '../../../support/test-host.js';
import {
  ID_TOKEN_ISSUER,
  INTEGRATION_SECRETS,
  ISSUER_KEYS,
  PUBSUB_SCOPE,
  SA_EMAIL,
  SA_KEYS,
  TOKEN_URL,
  serviceAccountJson,
  type RecordedRequest,
} from '../../../support/host/integrations.js';
import { OTHER_TENANT, failure, seen, warnings } from './support.js';

const engine = testEngine();
const FN_URL = 'https://fn.example.com/hello?x=1';

async function assertionOf(req: RecordedRequest): Promise<Record<string, unknown>> {
  expect(req).toMatchObject({ method: 'POST', path: '/cloud/token' });
  expect(req.headers['content-type']).toBe('application/x-www-form-urlencoded');
  const form = new URLSearchParams(req.body);
  expect(form.get('grant_type')).toBe('urn:ietf:params:oauth:grant-type:jwt-bearer');
  const { payload, protectedHeader } = await jwtVerify(
    form.get('assertion')!,
    await importSPKI(SA_KEYS.publicPem, 'RS256'),
    { audience: TOKEN_URL, issuer: SA_EMAIL },
  );
  expect(protectedHeader).toMatchObject({ alg: 'RS256', typ: 'JWT', kid: 'test-key-1' });
  expect(payload.sub).toBe(SA_EMAIL);
  expect(payload.exp! - payload.iat!).toBe(3600);
  return payload;
}

describe('cloudfn_token', () => {
  it("exchanges a signed assertion (target_audience = url) at the settings' token endpoint for an ID token", async () => {
    const { result, requests } = await seen(() =>
      engine.render('{cloudfn_token var=t url=$u}{$t}', { vars: { u: FN_URL } }),
    );
    expect(requests).toHaveLength(1);
    expect((await assertionOf(requests[0]!)).target_audience).toBe(FN_URL);
    const { payload } = await jwtVerify(result.output, await importSPKI(ISSUER_KEYS.publicPem, 'RS256'), {
      audience: FN_URL,
      issuer: ID_TOKEN_ISSUER,
    });
    expect(payload.sub).toBe(SA_EMAIL);
  });

  it('gives false when the token endpoint refuses the account', async () => {
    const r = await engine.render(
      '{cloudfn_token var=t url="https://fn.example.com/" sa_secret_name="DISABLED_SA"}{if $t === false}false{/if}',
    );
    expect(r.output).toBe('false');
    expect(warnings(r).join()).toContain('invalid_grant');
  });

  it('refuses a url that is not http(s), carries credentials or holds a secret handle', async () => {
    for (const u of ['ftp://fn.example.com/', 'not a url', 'https://user:pw@fn.example.com/']) {
      expect(await failure(engine, '{cloudfn_token var=t url=$u}', { vars: { u } })).toMatchObject({
        code: 'E_BAD_URL',
      });
    }
    expect(
      (
        await failure(
          engine,
          '{secret var=s key="EXAMPLE_TOKEN"}{cloudfn_token var=t url="https://fn.example.com/`$s`"}',
        )
      ).code,
    ).toBe('E_SECRET_DENIED');
  });

  it('refuses a secret that is not a service-account key, without quoting it', async () => {
    const host = testHost({
      secrets: {
        default: {
          ...INTEGRATION_SECRETS,
          NOT_SA: { value: '{"client_email":"a@b","private_key":"secret-material-xyz"}' },
          TEXT: { value: 'plain secret text' },
        },
      },
    });
    const e = testEngine({ host });
    for (const name of ['NOT_SA', 'TEXT', 'CHAT_TOKEN']) {
      const err = await failure(e, `{cloudfn_token var=t url="https://fn.example.com/" sa_secret_name="${name}"}`);
      expect(err.code).toBe('E_BAD_ATTRIBUTE');
      expect(err.message).not.toMatch(/secret-material|plain secret|xoxb/);
    }
    expect((await failure(e, '{cloudfn_token var=t url="https://fn.example.com/" sa_secret_name="NONE"}')).code).toBe(
      'E_SECRET_NOT_FOUND',
    );
  });

  it('needs sa_secret_name when the settings name no default account, and the cloud settings', async () => {
    const host = testHost();
    const noDefault = testEngine({
      host: {
        ...host,
        cloud: {
          settings: async () => ({
            tokenUrl: TOKEN_URL,
            pubsubBase: 'https://api.example.com/cloud/pubsub',
            saSecret: null,
          }),
        },
      },
    });
    expect((await failure(noDefault, '{cloudfn_token var=t url="https://fn.example.com/"}')).code).toBe(
      'E_BAD_ATTRIBUTE',
    );
    expect(
      (
        await noDefault.render(
          '{cloudfn_token var=t url="https://fn.example.com/" sa_secret_name="CLOUD_SA"}{if $t}ok{/if}',
        )
      ).output,
    ).toBe('ok');
    expect(
      (await failure(engine, '{cloudfn_token var=t url="https://fn.example.com/"}', { identity: OTHER_TENANT })).code,
    ).toBe('E_HOST_CAPABILITY');
  });
});

describe('cloudpubsub_publish', () => {
  const publish = (tpl: string, vars?: Record<string, unknown>) => seen(() => engine.render(tpl, { vars }));

  it("gets an access token of scope pubsub, then publishes an array as JSON to the key's project", async () => {
    const { result, requests } = await publish('{cloudpubsub_publish var=id topic="orders" message=$m}{$id}', {
      m: { id: 12, name: 'ほん/book' },
    });
    expect(requests).toHaveLength(2);
    expect((await assertionOf(requests[0]!)).scope).toBe(PUBSUB_SCOPE);
    const pub = requests[1]!;
    expect(pub).toMatchObject({ method: 'POST', path: '/cloud/pubsub/v1/projects/test-project/topics/orders:publish' });
    expect(pub.headers.authorization).toMatch(/^Bearer ya29\.test-\d+$/);
    const data = (JSON.parse(pub.body) as { messages: { data: string }[] }).messages;
    expect(data).toHaveLength(1);
    expect(Buffer.from(data[0]!.data, 'base64').toString('utf8')).toBe('{"id":12,"name":"ほん/book"}');
    expect(result.output).toMatch(/^[0-9a-f]{12}$/);
  });

  it('sends a string as it is and a number as JSON; project= names another project', async () => {
    const sent = async (tpl: string, vars?: Record<string, unknown>): Promise<[string, string]> => {
      const { requests } = await publish(tpl, vars);
      const pub = requests.at(-1)!;
      return [
        pub.path,
        Buffer.from((JSON.parse(pub.body) as { messages: { data: string }[] }).messages[0]!.data, 'base64').toString(
          'utf8',
        ),
      ];
    };
    expect(await sent('{cloudpubsub_publish var=id topic="t-1" message="{\\"a\\": 1}"}')).toEqual([
      '/cloud/pubsub/v1/projects/test-project/topics/t-1:publish',
      '{"a": 1}',
    ]);
    expect(await sent('{cloudpubsub_publish var=id topic="t-1" message=42 project="other-project"}')).toEqual([
      '/cloud/pubsub/v1/projects/other-project/topics/t-1:publish',
      '42',
    ]);
    expect((await sent('{cloudpubsub_publish var=id topic="t-1" message=$m}', { m: true }))[1]).toBe('true');
  });

  it('gives false when the topic does not exist', async () => {
    const r = await engine.render(
      '{cloudpubsub_publish var=id topic="missing-topic" message="x"}{if $id === false}false{/if}',
    );
    expect(r.output).toBe('false');
    expect(warnings(r).join()).toContain('HTTP 404');
  });

  it('refuses topics and projects that could change the path, and messages past the cap', async () => {
    const { requests } = await seen(async () => {
      for (const topic of ['a/b', 'x', '../../v1/projects/p/topics/t', 'goog-topic', 'projects/p/topics/t']) {
        expect(
          await failure(engine, '{cloudpubsub_publish var=id topic=$t message="x"}', { vars: { t: topic } }),
        ).toMatchObject({ code: 'E_BAD_ATTRIBUTE' });
      }
      expect(
        await failure(engine, '{cloudpubsub_publish var=id topic="orders" message="x" project="Bad/Project"}'),
      ).toMatchObject({ code: 'E_BAD_ATTRIBUTE' });
      expect(
        await failure(engine, '{cloudpubsub_publish var=id topic="orders" message=$m}', {
          vars: { m: 'x'.repeat(1024 * 1024 + 1) },
        }),
      ).toMatchObject({ code: 'E_SIZE_LIMIT' });
    });
    // The project is checked after the key is read, before any token is asked for.
    expect(requests).toEqual([]);
    const { requests: one } = await seen(() =>
      engine.render('{cloudpubsub_publish var=id topic="orders" message=$m}', { vars: { m: 'x'.repeat(1024 * 1024) } }),
    );
    expect(one).toHaveLength(2);
  });

  it('needs project= for a key without project_id', async () => {
    const e = testEngine({
      host: testHost({
        secrets: { default: { ...INTEGRATION_SECRETS, CLOUD_SA: { value: serviceAccountJson(SA_EMAIL, null) } } },
      }),
    });
    expect((await failure(e, '{cloudpubsub_publish var=id topic="orders" message="x"}')).code).toBe('E_BAD_ATTRIBUTE');
    expect(
      (await e.render('{cloudpubsub_publish var=id topic="orders" message="x" project="given-project"}{if $id}ok{/if}'))
        .output,
    ).toBe('ok');
  });

  it("never follows the key file's token_uri", async () => {
    const { requests } = await seen(() => engine.render('{cloudpubsub_publish var=id topic="orders" message="x"}'));
    expect(decodeJwt(new URLSearchParams(requests[0]!.body).get('assertion')!).aud).toBe(TOKEN_URL);
    expect(requests.map((r) => r.path)).not.toContain('/token');
  });
});
