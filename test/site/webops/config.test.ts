/** site.json `cdn` and `deploy`: read strictly, like every key of site.json. */
import { describe, expect, it } from 'vitest';
import { parseSiteConfig, SiteConfigError } from '../../../src/site/config.js';

const base = { site_key: 'demo', timezone: 'Asia/Tokyo', lang: 'ja' };

describe('site.json cdn and deploy', () => {
  it('takes a URL and an optional token secret name', () => {
    const c = parseSiteConfig(
      {
        ...base,
        cdn: { purge_url: 'https://cdn.example.com/purge' },
        deploy: { hook_url: 'https://hooks.example/b/1', token_secret: 'HOOK_TOKEN' },
      },
      'site.json',
    );
    expect(c.cdn).toEqual({ purge_url: 'https://cdn.example.com/purge' });
    expect(c.deploy).toEqual({ hook_url: 'https://hooks.example/b/1', token_secret: 'HOOK_TOKEN' });
    expect(parseSiteConfig(base, 'site.json').deploy).toBeUndefined();
  });

  it('refuses other schemes, unknown keys and bad secret names, naming the key', () => {
    for (const cdn of [
      { purge_url: 'ftp://x/' },
      { purge_url: 'https://x/', extra: 1 },
      { purge_url: 'https://x/', token_secret: '../x' },
      { url: 'https://x/' },
      'https://x/',
    ]) {
      expect(() => parseSiteConfig({ ...base, cdn }, 'site.json')).toThrow(SiteConfigError);
    }
    expect(() => parseSiteConfig({ ...base, deploy: { hook_url: 'file:///etc/passwd' } }, 'site.json')).toThrow(
      'site.json: /deploy/hook_url: must be an http(s) URL',
    );
  });
});
