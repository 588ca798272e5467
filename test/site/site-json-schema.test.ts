/**
 * schema/site.schema.json is the one description of site.json (D191). Its generated module is
 * fresh; it is a valid draft-07 schema to ajv in strict mode; our checker (json-check.ts) and ajv
 * agree on every sample, valid or not; and our checker's errors name the JSON path.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkJson, problemText } from '../../src/site/json-check.js';
import { SITE_SCHEMA, SITE_SCHEMA_URL } from '../../src/site/site-json.generated.js';
import { ajvSiteJsonErrors, SITE_SCHEMA_FILE } from '../support/site-schema.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

const base = { site_key: 'demo', timezone: 'Asia/Tokyo', lang: 'ja' };
const s3 = {
  type: 's3',
  region: 'ap-northeast-1',
  bucket: 'site-files',
  access_key_secret: 'A',
  secret_key_secret: 'B',
};
const SAMPLES: [name: string, json: unknown, valid: boolean][] = [
  ['the least', base, true],
  ['$schema', { $schema: SITE_SCHEMA_URL, ...base }, true],
  ['not an object', [base], false],
  ['an unknown key', { ...base, sitekey: 'x' }, false],
  ['a missing key', { timezone: 'UTC', lang: 'en' }, false],
  ['a bad slug', { ...base, site_key: '-x' }, false],
  ['a null database', { ...base, database: null }, true],
  ['a mysql database', { ...base, database: 'mysql://x' }, false],
  ['a number for a nullable string', { ...base, batch_queue: 1 }, false],
  ['an endpoint', { ...base, endpoints: [{ path: 'news', method: 'GET', function: 'news', api_id: 1 }] }, true],
  ['a PUT endpoint', { ...base, endpoints: [{ path: 'news', method: 'PUT', function: 'news', api_id: 1 }] }, false],
  ['a fractional api_id', { ...base, apis: [{ api_id: 1.5, security: 'none' }] }, false],
  ['no languages', { ...base, languages: [] }, false],
  ['local storage', { ...base, storage: { type: 'local' } }, true],
  ['local storage with a bucket', { ...base, storage: { type: 'local', bucket: 'x' } }, false],
  ['s3 storage', { ...base, storage: s3 }, true],
  ['s3 storage with a dot-dot prefix', { ...base, storage: { ...s3, prefix: 'a/../b' } }, false],
  ['s3 storage without a bucket', { ...base, storage: { ...s3, bucket: undefined } }, false],
  ['ftp storage', { ...base, storage: { type: 'ftp' } }, false],
  ['secrets from a file', { ...base, secrets: { file: '/run/secrets.json' } }, true],
  ['secrets from both', { ...base, secrets: { file: 'x', env_prefix: 'X_' } }, false],
  ['secrets by a lower-case prefix', { ...base, secrets: { env_prefix: 'x_' } }, false],
  [
    'an smtp relay',
    { ...base, mail: { verified_domains: ['example.com'], smtp: { host: 'smtp.example.com', port: 587 } } },
    true,
  ],
  [
    'a CA file outside the folder',
    { ...base, mail: { verified_domains: [], smtp: { host: 'h', port: 25, ca_file: '../ca.pem' } } },
    false,
  ],
  ['a port too high', { ...base, mail: { verified_domains: [], smtp: { host: 'h', port: 65536 } } }, false],
  ['a from name too long', { ...base, mail: { verified_domains: [], from_name: 'x'.repeat(201) } }, false],
  ['a blank modifier', { ...base, default_modifiers: [' '] }, false],
  ['batch limits', { ...base, batch_limits: { wall: '2h', cpu_ms: 120000, memory: '256M' } }, true],
  ['a 1G memory class', { ...base, batch_limits: { memory: '1G' } }, false],
  [
    'every integration',
    {
      ...base,
      integrations: {
        chat: { token_secret: 'BOT' },
        social: { api_base: 'http://127.0.0.1:9', token_secret: 'X' },
        cloud: {},
        analytics: { property_id: '123', sa_secret_name: 'GA' },
      },
    },
    true,
  ],
  [
    'an integration URL that is no URL',
    { ...base, integrations: { chat: { token_secret: 'B', api_base: 'http://[::1' } } },
    false,
  ],
];

describe('schema/site.schema.json', () => {
  it('src/site/site-json.generated.ts is what it generates (npm run site-schema:check)', () => {
    const r = spawnSync(process.execPath, ['scripts/build-site-schema.mjs', '--check'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it('is the schema the package publishes and init names', () => {
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      version: string;
      files: string[];
      exports: Record<string, unknown>;
    };
    expect(pkg.exports['./site.schema.json']).toBe('./schema/site.schema.json');
    expect(pkg.files).toContain('schema');
    expect(SITE_SCHEMA_URL).toBe(`https://unpkg.com/smartcage@${pkg.version}/schema/site.schema.json`);
    expect(SITE_SCHEMA).toEqual(JSON.parse(readFileSync(SITE_SCHEMA_FILE, 'utf8')));
  });

  it.each(SAMPLES)('ajv and our checker agree: %s', (_name, json, valid) => {
    const ours = checkJson(SITE_SCHEMA, json);
    const ajv = ajvSiteJsonErrors(json);
    expect(ajv.length === 0, ajv.join('; ')).toBe(valid);
    expect(ours.ok, ours.ok ? '' : problemText(ours.problem)).toBe(valid);
  });

  it('names the JSON path and what the value must be, never the value', () => {
    const text = (json: unknown) => {
      const r = checkJson(SITE_SCHEMA, json);
      return r.ok ? 'valid' : problemText(r.problem);
    };
    expect(text([])).toBe('must be an object');
    expect(text({ ...base, storage: { ...s3, bucket: 'A' } })).toBe(
      '/storage/bucket: must be a bucket name (a-z, 0-9, . and -, 3 to 63)',
    );
    expect(text({ ...base, storage: { type: 'ftp' } })).toBe(
      '/storage: must be one of: {"type": "local"}; {"type": "s3", "region", "bucket", "access_key_secret", "secret_key_secret"}',
    );
    expect(text({ ...base, secrets: { file: 'x', env_prefix: 'X_' } })).toBe(
      '/secrets: must be one of: {"file": "<path>"}; {"env_prefix": "<PREFIX_>"}',
    );
    expect(text({ ...base, secrets: { env_prefix: 'x_' } })).toBe(
      '/secrets/env_prefix: must be an upper-case prefix (A-Z, 0-9 and _)',
    );
    expect(text({ ...base, mail: { verified_domains: [], smtp: { host: 'h', port: 0 } } })).toBe(
      '/mail/smtp/port: must be at least 1',
    );
    expect(text({ ...base, 'a/b~c': 1 })).toMatch(/^unknown key "a\/b~c"/);
    expect(text({ ...base, integrations: { chat: { token_secret: 'xoxb-1234 5678' } } })).not.toContain('xoxb');
  });
});
