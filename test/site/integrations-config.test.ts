/**
 * site.json `integrations`: read strictly (unknown keys, wrong values and missing required keys
 * name their JSON path), defaults filled in, and a site's adapters: a service the site does not list has
 * none (its plugins are E_HOST_CAPABILITY), one it lists answers its own tenant only.
 */
import { describe, expect, it } from 'vitest';
import { parseSiteConfig, SiteConfigError } from '../../src/site/config.js';
import { DEFAULT_ENDPOINTS } from '../../src/site/integrations-config.js';
import { eachBackend } from './support/backends.js';
import { siteBench } from './support/site-bench.js';

const BASE = { site_key: 'demo', timezone: 'Asia/Tokyo', lang: 'ja' };
const parse = (integrations: unknown) => parseSiteConfig({ ...BASE, integrations }, 'site.json').integrations;
const problem = (integrations: unknown): string => {
  try {
    parse(integrations);
  } catch (e) {
    expect(e).toBeInstanceOf(SiteConfigError);
    return (e as Error).message;
  }
  throw new Error('site.json was accepted');
};

describe('site.json integrations', () => {
  it("is empty when absent, and fills in the real services' endpoints", () => {
    expect(parseSiteConfig(BASE, 'site.json').integrations).toEqual({});
    expect(
      parse({
        chat: { token_secret: 'BOT' },
        social: { token_secret: 'X' },
        cloud: {},
        analytics: { property_id: '123', sa_secret_name: 'GA' },
      }),
    ).toEqual({
      chat: { api_base: DEFAULT_ENDPOINTS.chat, token_secret: 'BOT' },
      social: { api_base: DEFAULT_ENDPOINTS.social, token_secret: 'X' },
      cloud: { token_url: DEFAULT_ENDPOINTS.token, pubsub_base: DEFAULT_ENDPOINTS.pubsub, sa_secret_name: null },
      analytics: {
        api_base: DEFAULT_ENDPOINTS.analytics,
        property_id: '123',
        sa_secret_name: 'GA',
        token_url: DEFAULT_ENDPOINTS.token,
      },
    });
    expect(DEFAULT_ENDPOINTS).toMatchObject({
      chat: 'https://slack.com/api',
      social: 'https://api.x.com',
      token: 'https://oauth2.googleapis.com/token',
    });
  });

  it('takes the analytics token endpoint from the cloud settings unless it names its own', () => {
    const cloud = { token_url: 'http://127.0.0.1:9/token' };
    expect(parse({ cloud, analytics: { property_id: '1', sa_secret_name: 'GA' } }).analytics!.token_url).toBe(
      'http://127.0.0.1:9/token',
    );
    expect(
      parse({ cloud, analytics: { property_id: '1', sa_secret_name: 'GA', token_url: 'https://t.example/token' } })
        .analytics!.token_url,
    ).toBe('https://t.example/token');
  });

  it('names the JSON path of what is unknown, missing or wrong', () => {
    expect(problem([])).toBe('site.json: /integrations: must be an object');
    expect(problem({ mail: {} })).toBe(
      'site.json: /integrations: unknown key "mail" (known: chat, social, cloud, analytics)',
    );
    expect(problem({ chat: { token_secret: 'BOT', token: 'xoxb-1' } })).toBe(
      'site.json: /integrations/chat: unknown key "token" (known: api_base, token_secret)',
    );
    expect(problem({ chat: {} })).toBe('site.json: /integrations/chat: "token_secret" is required');
    expect(problem({ chat: { token_secret: 'BOT', api_base: 'ftp://slack.com' } })).toBe(
      'site.json: /integrations/chat/api_base: must be an http(s) URL',
    );
    expect(problem({ chat: { token_secret: 'BOT', api_base: 'http://[::1' } })).toBe(
      'site.json: /integrations/chat/api_base: must be a URL',
    );
    // The value itself is never shown: a token pasted where a secret's name belongs stays out of logs.
    expect(problem({ social: { token_secret: 'has space' } })).toBe(
      "site.json: /integrations/social/token_secret: must be a secret's name (A-Z, a-z, 0-9, _, . and -, 1 to 128)",
    );
    expect(problem({ analytics: { property_id: 123, sa_secret_name: 'GA' } })).toBe(
      'site.json: /integrations/analytics/property_id: must be a string',
    );
    expect(problem({ analytics: { property_id: '123' } })).toBe(
      'site.json: /integrations/analytics: "sa_secret_name" is required',
    );
    expect(problem({ cloud: 'yes' })).toBe('site.json: /integrations/cloud: must be an object');
  });
});

eachBackend("a site's integration adapters", (backend) => {
  const bench = siteBench(backend, {
    sample: { edit: (c) => void (c.integrations = { chat: { token_secret: 'BOT' } }) },
  });

  it('has an adapter for each service it lists', async () => {
    const { host } = bench.site;
    expect(await host.chat!.settings()).toEqual({ apiBase: DEFAULT_ENDPOINTS.chat, tokenSecret: 'BOT' });
    expect([host.social, host.cloud, host.analytics]).toEqual([undefined, undefined, undefined]);
  });

  it('makes the plugins of a service it does not list E_HOST_CAPABILITY at their line', async () => {
    expect(await bench.error('\n{social_post_message var=p text="x"}')).toMatchObject({
      code: 'E_HOST_CAPABILITY',
      line: 2,
    });
    expect(await bench.error('{cloudfn_token var=t url="https://fn.example.com/"}')).toMatchObject({
      code: 'E_HOST_CAPABILITY',
    });
    expect(await bench.error('{webanalytics var=r}')).toMatchObject({ code: 'E_HOST_CAPABILITY' });
    // Listed, but secrets.json has no BOT: the secret is missing, nothing is sent.
    expect(await bench.error('{chat_team_info var=t}')).toMatchObject({ code: 'E_SECRET_NOT_FOUND' });
  });
});

eachBackend("a site's own egress guard", (backend) => {
  const bench = siteBench(backend, {
    sample: {
      edit: (c) => void (c.integrations = { chat: { api_base: 'http://127.0.0.1:9/api', token_secret: 'BOT' } }),
      files: { 'secrets.json': JSON.stringify({ BOT: { value: 'xoxb-local', hosts: ['http://127.0.0.1'] } }) },
    },
  });

  it('refuses settings that point at the loopback: only a test egress policy lets a request through', async () => {
    const e = await bench.error('{chat_team_info var=t}');
    expect(e.code).toBe('E_SSRF_DENIED');
    expect(e.message).not.toContain('xoxb-local');
  });
});
