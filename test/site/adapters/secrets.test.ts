/**
 * Where a site's secrets come from (src/site/adapters/secrets.ts): secrets.json in the folder, a
 * file named by site.json `secrets.file` (a volume on every node), or environment variables with
 * the `secrets.env_prefix`; read through the site's own adapter, as every plugin reads them.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sampleSite, BACKENDS } from '../support/backends.js';
import { readSecrets, SecretsFileError } from '../../../src/site/adapters/secrets.js';
import { parseSiteConfig, SiteConfigError } from '../../../src/site/config.js';

const outside = mkdtempSync(path.join(tmpdir(), 'smartcage-secrets-'));
afterAll(() => rmSync(outside, { recursive: true, force: true }));

describe('site secrets', () => {
  it('reads secrets.json in the folder by default', async () => {
    const site = await sampleSite(BACKENDS[0]!, {
      files: { 'secrets.json': JSON.stringify({ TOKEN: { value: 'in-folder', hosts: ['api.example.com'] } }) },
    });
    try {
      expect(await site.host.secrets!.get('TOKEN')).toEqual({
        value: 'in-folder',
        hosts: ['api.example.com'],
      });
      expect(await site.host.secrets!.get('OTHER')).toBeNull();
    } finally {
      await site.done();
    }
  });

  it('reads a file named by site.json, not secrets.json, and sees a rotation at the next use', async () => {
    const file = path.join(outside, 'site-a.json');
    writeFileSync(file, JSON.stringify({ TOKEN: { value: 'mounted-1' } }));
    const site = await sampleSite(BACKENDS[0]!, {
      files: { 'secrets.json': JSON.stringify({ TOKEN: { value: 'ignored' } }) },
      edit: (c) => (c.secrets = { file }),
    });
    try {
      expect(await site.host.secrets!.get('TOKEN')).toEqual({ value: 'mounted-1', hosts: [] });
      writeFileSync(file, JSON.stringify({ TOKEN: { value: 'mounted-2' } }));
      expect((await site.host.secrets!.get('TOKEN'))?.value).toBe('mounted-2');
    } finally {
      await site.done();
    }
  });

  it('reads environment variables with the prefix: a JSON record, or the bare value with no hosts', () => {
    const env = {
      SITE_A_TOKEN: '{"value":"t0k","hosts":["api.example.com"]}',
      SITE_A_SMTP_PASS: 'p@ss',
      SITE_B_TOKEN: 'theirs',
      SITE_A_: 'no name',
    };
    const secrets = readSecrets('/nowhere', { env_prefix: 'SITE_A_' }, env);
    expect({ ...secrets }).toEqual({
      TOKEN: { value: 't0k', hosts: ['api.example.com'] },
      SMTP_PASS: { value: 'p@ss', hosts: [] },
    });
  });

  it('names a secrets file that is not JSON; a missing one gives no secrets', () => {
    const bad = path.join(outside, 'bad.json');
    writeFileSync(bad, '{ nope');
    expect(() => readSecrets(outside, { file: 'bad.json' })).toThrow(SecretsFileError);
    expect(() => readSecrets(outside, { file: 'bad.json' })).toThrow(`${bad}: not valid JSON`);
    expect({ ...readSecrets(outside, { file: 'missing.json' }) }).toEqual({});
  });

  it.each([[{ file: '' }], [{ env_prefix: 'lower_' }], [{ file: 'a', env_prefix: 'A_' }], ['secrets.json']])(
    'refuses site.json secrets %j',
    (secrets) => {
      expect(() =>
        parseSiteConfig({ site_key: 'a', timezone: 'Asia/Tokyo', lang: 'ja', secrets }, 'site.json'),
      ).toThrow(SiteConfigError);
    },
  );
});
