/**
 * chat_get_message, chat_post_message and chat_team_info against the local Slack-compatible Web
 * API of the test host (api.example.com on 127.0.0.2, reached only through the test egress
 * policy): what is sent (bearer token, JSON, mentions, thread), what var gets, and each refusal.
 */
import { describe, expect, it } from 'vitest';
import { testEngine } from '../../../support/engine.js';
import { testHost } from '../../../support/test-host.js';
import { CHAT_TOKEN, INTEGRATION_SECRETS } from '../../../support/host/integrations.js';
import { OTHER_TENANT, failure, seen, warnings } from './support.js';

const engine = testEngine();

describe('chat_post_message', () => {
  it('posts JSON with the bot token, users as mentions before the text, in a thread', async () => {
    const { result, requests } = await seen(() =>
      engine.render(
        '{chat_post_message var=ok channel="C0EXAMPLE" users=$who text="deploy done" thread_ts="1700000000.000100"}{if $ok === true}true{/if}',
        {
          vars: { who: ['U0ALICE', 'U0BOB'] },
        },
      ),
    );
    expect(result.output).toBe('true');
    expect(requests).toHaveLength(1);
    const [req] = requests;
    expect(req!.method).toBe('POST');
    expect(req!.path).toBe('/chat/api/chat.postMessage');
    expect(req!.headers.authorization).toBe(`Bearer ${CHAT_TOKEN}`);
    expect(JSON.parse(req!.body)).toEqual({
      channel: 'C0EXAMPLE',
      text: '<@U0ALICE> <@U0BOB> deploy done',
      thread_ts: '1700000000.000100',
    });
  });

  it('takes one user ID as a string, and mentions alone', async () => {
    const { requests } = await seen(() =>
      engine.render('{chat_post_message var=ok channel="C0EXAMPLE" users="W0ADMIN"}'),
    );
    expect(JSON.parse(requests[0]!.body)).toEqual({ channel: 'C0EXAMPLE', text: '<@W0ADMIN>' });
  });

  it('gives false and a warning when the API answers ok: false', async () => {
    const r = await engine.render(
      '{chat_post_message var=ok channel="C0ARCHIVED" text="x"}{if $ok === false}false{/if}',
    );
    expect(r.output).toBe('false');
    expect(warnings(r).join()).toContain('is_archived');
    expect(
      (
        await engine.render(
          '{chat_post_message var=ok channel="C0EXAMPLE" text="x" thread_ts="1.5"}{if $ok === false}false{/if}',
        )
      ).output,
    ).toBe('false');
  });

  it('refuses a user that is not a user ID, so no broadcast can be slipped in', async () => {
    for (const who of ['!channel', 'U0A> <!here', 'c0channel', '']) {
      const e = await failure(engine, '\n{chat_post_message var=ok channel="C0EXAMPLE" users=$who text="x"}', {
        vars: { who: [who] },
      });
      expect(e).toMatchObject({ code: 'E_BAD_ATTRIBUTE', line: 2 });
    }
  });

  it('refuses a bad channel or thread_ts, an empty message and messages past the caps', async () => {
    expect(await failure(engine, '{chat_post_message channel="C0 X" text="x"}')).toMatchObject({
      code: 'E_BAD_ATTRIBUTE',
    });
    expect(await failure(engine, '{chat_post_message channel="../team.info" text="x"}')).toMatchObject({
      code: 'E_BAD_ATTRIBUTE',
    });
    expect(
      await failure(engine, '{chat_post_message channel="C0EXAMPLE" text="x" thread_ts="yesterday"}'),
    ).toMatchObject({ code: 'E_BAD_ATTRIBUTE' });
    expect(await failure(engine, '{chat_post_message channel="C0EXAMPLE"}')).toMatchObject({ code: 'E_BAD_ATTRIBUTE' });
    expect(await failure(engine, '{chat_post_message text="x"}')).toMatchObject({ code: 'E_MISSING_ATTR' });
    expect(
      await failure(engine, '{chat_post_message channel="C0EXAMPLE" text=$t}', { vars: { t: 'x'.repeat(40_001) } }),
    ).toMatchObject({ code: 'E_SIZE_LIMIT' });
    const many = Array.from({ length: 101 }, (_, i) => `U${i}A`);
    expect(
      await failure(engine, '{chat_post_message channel="C0EXAMPLE" users=$who}', { vars: { who: many } }),
    ).toMatchObject({ code: 'E_SIZE_LIMIT' });
    const { requests } = await seen(() =>
      engine.render('{chat_post_message channel="C0EXAMPLE" text=$t}', { vars: { t: 'x'.repeat(40_000) } }),
    );
    expect(requests).toHaveLength(1);
  });
});

describe('chat_get_message', () => {
  it('gets a message by ts from the history, with the token in the header and the range in the query', async () => {
    const { result, requests } = await seen(() =>
      engine.render('{chat_get_message var=m channel="C0EXAMPLE" ts="1700000100.000200"}{$m.user}|{$m.text}'),
    );
    expect(result.output).toBe('U0BOB|Later message');
    expect(requests).toHaveLength(1);
    const u = new URL(requests[0]!.path, 'http://x');
    expect(u.pathname).toBe('/chat/api/conversations.history');
    expect(Object.fromEntries(u.searchParams)).toEqual({
      channel: 'C0EXAMPLE',
      latest: '1700000100.000200',
      oldest: '1700000100.000200',
      inclusive: 'true',
      limit: '1',
    });
    expect(requests[0]!.headers.authorization).toBe(`Bearer ${CHAT_TOKEN}`);
  });

  it('finds a thread reply in its thread, and without ts gives the latest message', async () => {
    const { result, requests } = await seen(() =>
      engine.render('{chat_get_message var=m channel="C0EXAMPLE" ts="1700000050.000300"}{$m.text}'),
    );
    expect(result.output).toBe('A reply');
    expect(requests.map((r) => new URL(r.path, 'http://x').pathname)).toEqual([
      '/chat/api/conversations.history',
      '/chat/api/conversations.replies',
    ]);
    expect((await engine.render('{chat_get_message var=m channel="C0EXAMPLE"}{$m.ts}')).output).toBe(
      '1700000100.000200',
    );
  });

  it('gives false for a message that is not there and for a channel the API does not know', async () => {
    const r = await engine.render(
      '{chat_get_message var=m channel="C0EXAMPLE" ts="1600000000.000001"}{if $m === false}false{/if}',
    );
    expect(r.output).toBe('false');
    expect(warnings(r).join()).toContain('thread_not_found');
    expect(
      (
        await engine.render(
          '{chat_get_message var=m channel="C0NOWHERE" ts="1700000100.000200"}{if $m === false}false{/if}',
        )
      ).output,
    ).toBe('false');
  });

  it('refuses a ts that is not a message timestamp', async () => {
    expect(await failure(engine, '\n\n{chat_get_message var=m channel="C0EXAMPLE" ts="latest"}')).toMatchObject({
      code: 'E_BAD_ATTRIBUTE',
      line: 3,
    });
  });
});

describe('chat_team_info', () => {
  it("gets the token's team, or the one named; false for another", async () => {
    const { result, requests } = await seen(() => engine.render('{chat_team_info var=t}{$t.id} {$t.name}'));
    expect(result.output).toBe('T0EXAMPLE Example Team');
    expect(requests[0]!.path).toBe('/chat/api/team.info');
    expect((await engine.render('{chat_team_info var=t team="T0EXAMPLE"}{$t.domain}')).output).toBe('example');
    expect((await engine.render('{chat_team_info var=t team="T0OTHER"}{if $t === false}false{/if}')).output).toBe(
      'false',
    );
    expect(await failure(engine, '{chat_team_info var=t team="T0 OTHER"}')).toMatchObject({ code: 'E_BAD_ATTRIBUTE' });
  });
});

describe('the chat settings and the token', () => {
  it('is E_HOST_CAPABILITY for a tenant without chat settings and for a host without the adapter', async () => {
    const e = await failure(engine, '{chat_team_info var=t}', { identity: OTHER_TENANT });
    expect(e.code).toBe('E_HOST_CAPABILITY');
    expect(e.message).toContain('chat integration settings');
    const { chat: _chat, ...withoutChat } = testHost();
    const bare = testEngine({ host: withoutChat });
    expect((await failure(bare, '{chat_post_message var=ok channel="C0EXAMPLE" text="x"}')).code).toBe(
      'E_HOST_CAPABILITY',
    );
  });

  it('sends the token only to a host its secret allows, and says nothing of its value', async () => {
    const elsewhere = testEngine({
      host: testHost({
        secrets: { default: { ...INTEGRATION_SECRETS, CHAT_TOKEN: { value: CHAT_TOKEN, hosts: ['slack.com'] } } },
      }),
    });
    const { result, requests } = await seen(() => failure(elsewhere, '{chat_team_info var=t}'));
    expect(result.code).toBe('E_SECRET_DENIED');
    expect(result.message).not.toContain(CHAT_TOKEN);
    expect(requests).toEqual([]);
    const missing = testEngine({ host: testHost({ secrets: { default: {} } }) });
    expect((await failure(missing, '{chat_team_info var=t}')).code).toBe('E_SECRET_NOT_FOUND');
  });

  it('refuses settings that point at a private address: the egress guard decides, not the settings', async () => {
    const host = testHost();
    const local = testEngine({
      host: {
        ...host,
        chat: { settings: async () => ({ apiBase: 'http://10.0.0.1/api', tokenSecret: 'CHAT_TOKEN' }) },
      },
    });
    const denied = testEngine({
      host: {
        ...testHost({
          secrets: { default: { CHAT_TOKEN: { value: CHAT_TOKEN, hosts: ['10.0.0.1', 'http://10.0.0.1'] } } },
        }),
        chat: { settings: async () => ({ apiBase: 'http://10.0.0.1/api', tokenSecret: 'CHAT_TOKEN' }) },
      },
    });
    expect((await failure(local, '{chat_team_info var=t}')).code).toBe('E_SECRET_DENIED');
    expect((await failure(denied, '{chat_team_info var=t}')).code).toBe('E_SSRF_DENIED');
  });
});

describe('what a chat service answers', () => {
  it('refuses an answer past the byte cap, and gives false for one nested too deep', async () => {
    expect(await failure(engine, '\n{chat_team_info var=t team="T0HUGE"}')).toMatchObject({
      code: 'E_SIZE_LIMIT',
      line: 2,
    });
    const deep = await engine.render('{chat_team_info var=t team="T0DEEP"}{if $t === false}false{/if}');
    expect(deep.output).toBe('false');
    expect(warnings(deep).join()).toContain('nested deeper than 64');
  });

  it("gives false when the service does not answer before the render's wall time runs out", async () => {
    const short = testEngine({ limits: { wallMs: 2000 } });
    await short.render('warm');
    const r = await short.render('{chat_team_info var=t team="T0SLOW"}{if $t === false}false{/if}');
    expect(r.output).toBe('false');
    expect(warnings(r).join()).toContain('timed out');
  });

  it('clears the bot token from an answer that echoes it', async () => {
    const r = await engine.render('{chat_team_info var=t team="T0ECHO"}{$t.name}');
    expect(r.output).toContain('seen Bearer');
    expect(r.output).not.toContain(CHAT_TOKEN);
  });

  it("counts its requests with {api}'s: 100 a render", async () => {
    const e = await failure(engine, '{section name=i loop=101}{chat_team_info var=t}{/section}');
    expect(e.code).toBe('E_QUOTA');
  });
});
