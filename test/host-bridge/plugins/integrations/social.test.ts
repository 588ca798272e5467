/**
 * social_post_message against the local X-API-v2-compatible service of the test host: the body
 * and bearer token sent, the post in var, false on a refusal, and the settings rule.
 */
import { describe, expect, it } from 'vitest';
import { testEngine } from '../../../support/engine.js';
import { testHost } from '../../../support/test-host.js';
import { SOCIAL_TOKEN } from '../../../support/host/integrations.js';
import { OTHER_TENANT, failure, seen, warnings } from './support.js';

const engine = testEngine();

describe('social_post_message', () => {
  it('posts {"text"} to /2/tweets with the user token and gives the post', async () => {
    const { result, requests } = await seen(() =>
      engine.render('{social_post_message var=p text="こんにちは https://example.com/a"}{$p.id}|{$p.text}'),
    );
    expect(result.output).toBe('1800000000000000001|こんにちは https://example.com/a');
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ method: 'POST', path: '/social/2/tweets' });
    expect(requests[0]!.headers.authorization).toBe(`Bearer ${SOCIAL_TOKEN}`);
    expect(requests[0]!.headers['content-type']).toBe('application/json');
    expect(JSON.parse(requests[0]!.body)).toEqual({ text: 'こんにちは https://example.com/a' });
  });

  it("gives false with the service's reason when it refuses the post", async () => {
    const r = await engine.render('{social_post_message var=p text="a duplicate"}{if $p === false}false{/if}');
    expect(r.output).toBe('false');
    expect(warnings(r).join()).toContain('HTTP 403');
  });

  it('refuses an empty text and one past the cap, before any request', async () => {
    const { requests } = await seen(async () => {
      expect(await failure(engine, '\n{social_post_message var=p text=""}')).toMatchObject({
        code: 'E_BAD_ATTRIBUTE',
        line: 2,
      });
      expect(
        await failure(engine, '{social_post_message var=p text=$t}', { vars: { t: 'あ'.repeat(25_001) } }),
      ).toMatchObject({ code: 'E_SIZE_LIMIT' });
      expect(await failure(engine, '{social_post_message var=p}')).toMatchObject({ code: 'E_MISSING_ATTR' });
    });
    expect(requests).toEqual([]);
  });

  it('needs the social settings: E_HOST_CAPABILITY without them', async () => {
    expect((await failure(engine, '{social_post_message var=p text="x"}', { identity: OTHER_TENANT })).code).toBe(
      'E_HOST_CAPABILITY',
    );
    const { social: _social, ...rest } = testHost();
    expect((await failure(testEngine({ host: rest }), '{social_post_message var=p text="x"}')).code).toBe(
      'E_HOST_CAPABILITY',
    );
  });
});
