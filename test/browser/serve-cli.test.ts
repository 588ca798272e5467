/** `smartcage serve` HTTP API (no browser) and `smartcage form validate`. */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFormsServer, type FormsServer } from '../../src/forms-ui/server/app.js';
import { runCli } from '../support/cli.js';

describe('smartcage serve API', () => {
  let s: FormsServer;
  let storage: string;
  let dir: string;
  let outside: string;
  beforeAll(async () => {
    storage = mkdtempSync(join(tmpdir(), 'smartcage-serve-'));
    dir = join(storage, 'user');
    mkdirSync(dir);
    outside = mkdtempSync(join(tmpdir(), 'smartcage-outside-'));
    writeFileSync(join(outside, 'secret.txt'), 'secret');
    mkdirSync(join(dir, 'docs'));
    writeFileSync(join(dir, 'docs', 'a.pdf'), '%PDF');
    writeFileSync(join(dir, 'b.txt'), 'b');
    writeFileSync(join(dir, '.hidden'), 'h');
    symlinkSync(outside, join(dir, 'escape'));
    s = await startFormsServer({ storageDir: storage });
  });
  afterAll(async () => {
    await s.close();
    rmSync(storage, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });
  const get = (p: string) => fetch(s.url + p);

  it('listens on 127.0.0.1 and lists the samples with a demo page each', async () => {
    expect(s.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const html = await (await get('/')).text();
    for (const n of ['article', 'event', 'rich-media', 'product-specs', 'settings-json', 'too-deep'])
      expect(html).toContain(`/demo/${n}`);
    const demo = await get('/demo/article');
    expect(demo.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(await demo.text()).toContain('<json-field-form name="ext_col"');
    expect((await get('/demo/nope')).status).toBe(404);
    expect((await get('/demo/__proto__')).status).toBe(404);
  });

  it('lists files below /files/user only, never dot files or what a symlink leads to', async () => {
    const root = (await (await get('/api/files?path=/files/user/')).json()) as {
      entries: Array<{ name: string; path: string; type: string }>;
    };
    expect(root.entries.map((e) => e.path)).toEqual(['/files/user/docs/', '/files/user/b.txt']); // symlinks are not listed
    const docs = (await (await get('/api/files?path=/files/user/docs/')).json()) as {
      entries: Array<{ path: string }>;
    };
    expect(docs.entries.map((e) => e.path)).toEqual(['/files/user/docs/a.pdf']);
    for (const bad of [
      '/files/user/../',
      '/files/user/%2e%2e/',
      '/files/ltd/',
      '/etc/',
      'files/user/',
      '/files/user/escape/',
      '/files/user/.hidden',
    ]) {
      const r = await get(`/api/files?path=${encodeURIComponent(bad)}`);
      expect(r.status, bad).toBeGreaterThanOrEqual(400);
    }
    expect((await get('/files/user/b.txt')).status).toBe(200);
    expect((await get('/files/user/escape/secret.txt')).status).toBe(400);
    expect((await get('/files/user/.hidden')).status).toBe(400);
    expect((await get('/files/user/%2e%2e/x')).status).toBeGreaterThanOrEqual(400); // URL parsing turns it into /files/x
  });

  it('reads through TenantFiles: a symlink is refused even when it stays inside the folder', async () => {
    symlinkSync(join(dir, 'b.txt'), join(dir, 'inner-link.txt'));
    expect((await get('/files/user/inner-link.txt')).status).toBe(400);
    const root = (await (await get('/api/files?path=/files/user/')).json()) as { entries: Array<{ path: string }> };
    expect(root.entries.map((e) => e.path)).toEqual(['/files/user/docs/', '/files/user/b.txt']);
  });

  it('validates with POST /api/validate and refuses bad schemas with 400', async () => {
    const post = (body: string) => fetch(`${s.url}/api/validate`, { method: 'POST', body });
    const ok = (await (await post(JSON.stringify({ schema: 'event', value: {} }))).json()) as { errors: unknown[] };
    expect(Array.isArray(ok.errors)).toBe(true);
    const bad = await post(JSON.stringify({ schema: { type: 'string', maxLenght: 3 }, value: 'x' }));
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBe('schema-invalid');
    expect((await post('not json')).status).toBe(400);
  });
});

describe('smartcage form validate', () => {
  const dir = mkdtempSync(join(tmpdir(), 'smartcage-form-'));
  const schema = join(dir, 'schema.json');
  writeFileSync(
    schema,
    JSON.stringify({
      type: 'object',
      properties: { name: { type: 'string', title: 'Name', minLength: 1 }, n: { type: 'integer', maximum: 3 } },
    }),
  );
  const good = join(dir, 'good.json');
  writeFileSync(good, JSON.stringify({ name: 'a', n: 1 }));
  const bad = join(dir, 'bad.json');
  writeFileSync(bad, JSON.stringify({ name: '', n: 9 }));
  const badSchema = join(dir, 'bad-schema.json');
  writeFileSync(badSchema, JSON.stringify({ type: 'object', propertis: {} }));
  const notJson = join(dir, 'not.json');
  writeFileSync(notJson, '{');

  it('exits 0 for a valid value', () => {
    const r = runCli(['form', 'validate', schema, good]);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('');
  });
  it('prints the errors and exits 1 for an invalid value, in Japanese with --lang ja', () => {
    const r = runCli(['form', 'validate', schema, bad]);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('/name: This field is required. [required]\n/n: Must be 3 or less. [maximum]\n');
    const ja = runCli(['form', 'validate', schema, bad, '--lang', 'ja']);
    expect(ja.status).toBe(1);
    expect(ja.stdout).toContain('/name: この項目は必須です。 [required]');
    const json = runCli(['form', 'validate', schema, bad, '--json']);
    expect(JSON.parse(json.stdout)).toEqual([
      expect.objectContaining({ path: '/name', keyword: 'required' }),
      expect.objectContaining({ path: '/n', keyword: 'maximum' }),
    ]);
  });
  it('exits 1 with a clear message for a bad schema or a file that is not JSON', () => {
    const r = runCli(['form', 'validate', badSchema, good]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('propertis');
    expect(runCli(['form', 'validate', schema, notJson]).status).toBe(1);
  });
  it('exits 2 on usage errors and 3 on unreadable files; --help works', () => {
    expect(runCli(['form']).status).toBe(2);
    expect(runCli(['form', 'check', schema, good]).status).toBe(2);
    expect(runCli(['form', 'validate', schema]).status).toBe(2);
    expect(runCli(['form', 'validate', schema, good, '--lang', 'fr']).status).toBe(2);
    expect(runCli(['form', 'validate', schema, join(dir, 'missing.json')]).status).toBe(3);
    const help = runCli(['form', '--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('smartcage form validate SCHEMA.json VALUE.json');
    const serveHelp = runCli(['serve', '--help']);
    expect(serveHelp.stdout).toContain('--files DIR');
    expect(runCli(['serve', '--port', 'x']).status).toBe(3);
    expect(runCli(['--help']).stdout).toMatch(/serve\s+Serve local sites, or the JSON-schema form UI/);
  });
});
