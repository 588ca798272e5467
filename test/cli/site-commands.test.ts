/**
 * The site commands as a user runs them (from the sources, in a child process): `render --site`,
 * `site put` / `site get` and `serve --site` / `--sites`, with their one-line errors and exit codes.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { startServe, stopServe, type ServeProcess } from '../support/serve-process.js';
import { initSite } from '../../src/site/init.js';
import { http } from '../site/support/http.js';

let base: string;
let dir: string;
beforeAll(async () => {
  base = mkdtempSync(path.join(tmpdir(), 'smartcage-site-cli-'));
  dir = path.join(base, 'sites', 'demo');
  await initSite(dir);
  await initSite(path.join(base, 'sites', 'second'));
  writeFileSync(
    path.join(dir, 'page.tpl'),
    '{include file="layout-header.tpl"}get={$smarty.get.q} me={$smarty.session.member_id}',
  );
  writeFileSync(
    path.join(dir, 'login.tpl'),
    '{login member_id=2}{api_internal endpoint="/rcms-api/1/me" use_current_session=true var=r}{$r.member_id}',
  );
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

const file = (name: string, text: string): string => {
  const p = path.join(base, name);
  writeFileSync(p, text);
  return p;
};

describe('smartcage render --site', () => {
  it("renders with the site's templates, as the member, with REQUEST.json", () => {
    const req = file('req.json', JSON.stringify({ get: { q: 'hi' } }));
    const r = runCli(['render', path.join(dir, 'page.tpl'), '--site', dir, '--member', '2', '--request', req]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('<header><h1>demo</h1></header>get=hi me=2');
  });

  it("prints the session cookie a login sets, and the next render with it is that member's", () => {
    const r = runCli(['render', path.join(dir, 'login.tpl'), '--site', dir]);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('2');
    const cookie = /^Set-Cookie: rcms_session=([^;]+); Path=\/; SameSite=Lax; Max-Age=86400; HttpOnly$/m.exec(r.stderr);
    expect(cookie).not.toBeNull();
    const req = file('session.json', JSON.stringify({ cookies: { rcms_session: cookie![1] } }));
    expect(runCli(['render', path.join(dir, 'page.tpl'), '--site', dir, '--request', req]).stdout).toMatch(/me=2$/);
  });

  it.each([
    [['--member', '2'], 2, '--member needs --site DIR'],
    [['--site', '{dir}', '--templates', '.'], 2, '--templates does not go with --site'],
    [['--site', '{dir}', '--member', 'x'], 2, '--member needs a member id'],
    [['--site', '{dir}', '--member', '99'], 2, '--member 99 is not a member of the site demo'],
    [['--site', '{dir}', '--context', 'cron'], 2, '--context takes web, batch, admin-test'],
    [['--site', '{base}/nowhere'], 3, 'nowhere: no such folder'],
    [['--site', '{base}'], 3, 'site.json: not found'],
    [['--site', '{dir}', '--request', '{base}/bad.json'], 3, 'unknown key "cookie"'],
  ])('%j: exit %i, one line', (args, status, message) => {
    writeFileSync(path.join(base, 'bad.json'), '{"cookie": {}}');
    const r = runCli([
      'render',
      path.join(dir, 'page.tpl'),
      ...args.map((a) => a.replace('{dir}', dir).replace('{base}', base)),
    ]);
    expect(r.status).toBe(status);
    expect(r.stderr.split('\n')[0]).toContain(message);
  });

  it('a site.json its schema refuses: exit 3, one line naming the JSON path', () => {
    const broken = path.join(base, 'broken');
    mkdirSync(broken, { recursive: true });
    const site = JSON.parse(readFileSync(path.join(dir, 'site.json'), 'utf8')) as { endpoints: unknown[] };
    site.endpoints.push({ path: 'x', method: 'PUT', function: 'x', api_id: 1 });
    writeFileSync(path.join(broken, 'site.json'), JSON.stringify(site));
    const r = runCli(['render', path.join(dir, 'page.tpl'), '--site', broken]);
    expect(r.status).toBe(3);
    expect(r.stderr.trim().split('\n')).toEqual([
      expect.stringContaining(`${path.join(broken, 'site.json')}: /endpoints/2/method: must be one of GET, POST`),
    ]);
  });

  it('a template error is exit 1 at its line', () => {
    const r = runCli(['render', file('bad.tpl', '\n{login member_id=1}'), '--site', dir]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/bad\.tpl:2:\d+: error E_IDENTITY_DENIED/);
  });
});

describe('smartcage site put / get', () => {
  it('copies a file into the storage and back out, through virtual paths', () => {
    const bytes = Buffer.from([0, 1, 2, 255, 10]);
    writeFileSync(path.join(base, 'blob.bin'), bytes);
    expect(runCli(['site', 'put', dir, '/files/user/dir/blob.bin', path.join(base, 'blob.bin')]).status).toBe(0);
    expect(readFileSync(path.join(dir, 'files', 'user', 'dir', 'blob.bin'))).toEqual(bytes);
    writeFileSync(path.join(base, 'note.txt'), 'こんにちは\n');
    expect(runCli(['site', 'put', dir, '/files/ltd/note.txt', path.join(base, 'note.txt')]).status).toBe(0);
    const got = runCli(['site', 'get', dir, '/files/ltd/note.txt']);
    expect(got.status).toBe(0);
    expect(got.stdout).toBe('こんにちは\n');
    expect(runCli(['site', 'get', dir, '/files/user/dir/../../../site.json']).status).toBe(2);
  });

  it.each([
    [['get', '{dir}', '/etc/passwd'], 2, 'not under a known root'],
    [['get', '{dir}', '/files/user/'], 2, 'names a folder'],
    [['get', '{dir}', '/files/user/missing.txt'], 3, 'no such file'],
    [['put', '{dir}', '/files/user/x.txt', '{base}/missing'], 3, 'cannot read'],
    [['put', '{dir}', '/files/user'], 2, 'site put takes a site folder, a virtual path and a local file'],
    [['get', '{base}/nowhere', '/files/user/x'], 3, 'no such folder'],
  ])('%j: exit %i', (args, status, message) => {
    const r = runCli(['site', ...args.map((a) => a.replace('{dir}', dir).replace('{base}', base))]);
    expect(r.status).toBe(status);
    expect(r.stderr.split('\n')[0]).toContain(message);
  });

  it('a link inside the storage is never followed out of it', () => {
    mkdirSync(path.join(dir, 'files', 'user', 'l'), { recursive: true });
    symlinkSync(path.join(dir, 'site.json'), path.join(dir, 'files', 'user', 'l', 'site.json'));
    const r = runCli(['site', 'get', dir, '/files/user/l/site.json']);
    expect(r.status).toBe(3);
    expect(r.stdout).toBe('');
  });
});

describe('smartcage serve --site / --sites', () => {
  const running: ServeProcess[] = [];
  afterAll(async () => {
    await Promise.all(running.map((s) => stopServe(s)));
  });

  async function serve(args: string[]): Promise<{ url: string; out: string; child: ChildProcess }> {
    const s = await startServe(['--port', '0', ...args], { fromSources: true });
    running.push(s);
    return { url: s.url, out: s.out(), child: s.child };
  }

  it("--site serves the site's API and stops on SIGTERM with exit 0", async () => {
    const s = await serve(['--site', dir]);
    expect(s.out).toContain('site demo');
    expect(JSON.parse((await http(`${s.url}/rcms-api/1/me`)).body)).toEqual([]);
    const exit = new Promise((done) => s.child.once('exit', (code) => done(code)));
    s.child.kill('SIGTERM');
    expect(await exit).toBe(0);
  });

  it('--sites serves each site folder under its key', async () => {
    const s = await serve(['--sites', path.join(base, 'sites')]);
    expect(s.out).toContain('2 sites');
    expect((await http(`${s.url}/sites/second/rcms-api/1/news`)).status).toBe(200);
    expect((await http(`${s.url}/rcms-api/1/news`, { headers: { host: 'demo.localhost' } })).status).toBe(200);
  });

  it('refuses, in one line: two sites with one key (3), a folder without sites (3), --files with --site (2)', async () => {
    const twins = path.join(base, 'twins');
    await initSite(path.join(twins, 'a'), { siteKey: 'same' });
    await initSite(path.join(twins, 'b'), { siteKey: 'same' });
    const dup = runCli(['serve', '--port', '0', '--sites', twins]);
    expect(dup.status).toBe(3);
    expect(dup.stderr.trim()).toMatch(/^smartcage serve: .*have the same site key "same"/);
    expect(dup.stderr.trim().split('\n')).toHaveLength(1);
    const none = runCli(['serve', '--port', '0', '--sites', path.join(dir, 'files')]);
    expect(none.status).toBe(3);
    expect(none.stderr).toContain('no site folder in it');
    const both = runCli(['serve', '--site', dir, '--files', base]);
    expect(both.status).toBe(2);
    expect(both.stderr.split('\n')[0]).toContain('--files and --site do not go together');
  });
});
