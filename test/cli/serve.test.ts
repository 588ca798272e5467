/**
 * `smartcage serve` as a user runs it: the built bin/smartcage.js, in a folder of the user's
 * (no ./files needed), a port that is taken, and schemas of their own (`--schema`).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { requireBuild, runBin } from '../support/bin.js';
import { startServe, stopServe, type ServeProcess } from '../support/serve-process.js';

beforeAll(requireBuild);

const running: ServeProcess[] = [];
const folders: string[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => stopServe(s)));
});
afterAll(() => {
  for (const f of folders) rmSync(f, { recursive: true, force: true });
});

/** Starts `smartcage serve ARGS` in `cwd` and waits for the line with its address. */
async function serve(args: string[], cwd: string): Promise<{ url: string; out: () => string }> {
  const s = await startServe(['--port', '0', ...args], { cwd, waitMs: 15_000 });
  running.push(s);
  return s;
}

function folder(files: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'smartcage-serve-cli-'));
  folders.push(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

const contact = JSON.stringify({
  type: 'object',
  title: 'Contact',
  properties: { name: { type: 'string', title: 'Name', minLength: 1 } },
});

describe('smartcage serve (bin/smartcage.js)', () => {
  it('starts in an empty folder: no ./files needed, the file picker lists an empty /files/user/', async () => {
    const dir = folder();
    const s = await serve([], dir);
    expect(s.out()).toContain(`(files: none, ${join(dir, 'files')} does not exist)`);
    const list = await fetch(`${s.url}/api/files?path=/files/user/`);
    expect(list.status).toBe(200);
    expect(await list.json()).toEqual({ path: '/files/user/', entries: [] });
    expect((await fetch(`${s.url}/api/files?path=/files/user/sub/`)).status).toBe(404);
    expect((await fetch(`${s.url}/files/user/a.png`)).status).toBe(404);
    expect((await fetch(`${s.url}/demo/article`)).status).toBe(200);
  });

  it('says --files DIR is missing in one line (exit 3), and what the folder maps to when it exists', async () => {
    const dir = folder();
    const r = runBin(['serve', '--port', '0', '--files', 'nope'], { cwd: dir });
    expect(r.status).toBe(3);
    expect(r.stderr).toBe(`smartcage serve: folder ${join(dir, 'nope')} does not exist\n`);
    const s = await serve(['--files', '.'], dir);
    expect(s.out()).toContain(`(files: ${join(dir, 'user')}/ is /files/user/)`);
  });

  it('a port in use is one line on stderr and exit 3, no stack trace', async () => {
    const taken: Server = createServer();
    await new Promise<void>((ok) => taken.listen(0, '127.0.0.1', () => ok()));
    const port = (taken.address() as AddressInfo).port;
    try {
      const r = runBin(['serve', '--port', String(port)], { cwd: folder() });
      expect(r.stderr).toBe(
        `smartcage serve: port ${port} is in use (try --port 0 for a free one, or another --port N)\n`,
      );
      expect(r.stdout).toBe('');
      expect(r.status).toBe(3);
    } finally {
      await new Promise((ok) => taken.close(ok));
    }
  });

  it('--schema FILE (repeatable) is listed first and served with its precompiled validator', async () => {
    const dir = folder({
      'contact.json': contact,
      'article.json': JSON.stringify({ type: 'object', properties: { n: { type: 'integer' } } }),
    });
    const s = await serve(['--schema', 'contact.json', '--schema', 'article.json'], dir);
    // a name the samples use gets a suffix: the sample stays reachable
    expect(s.out()).toContain(`  contact: ${s.url}/demo/contact\n  article-2: ${s.url}/demo/article-2\n`);
    const home = await (await fetch(`${s.url}/`)).text();
    expect(home.indexOf('/demo/contact')).toBeLessThan(home.indexOf('/demo/event'));
    const page = await (await fetch(`${s.url}/demo/contact`)).text();
    expect(page).toContain('<h1>Contact</h1>');
    expect(page).toContain('<script src="/validators/contact.js" defer>');
    const script = await (await fetch(`${s.url}/validators/contact.js`)).text();
    expect(script).toContain('SmartcageValidators');
    expect(script).not.toMatch(/\bnew Function\b|\beval\(/);
    expect((await fetch(`${s.url}/demo/article`)).status).toBe(200);
    expect(await (await fetch(`${s.url}/demo/article-2`)).text()).toContain('&#34;n&#34;');
    for (const bad of ['/demo/%E0', '/validators/%E0.js']) expect((await fetch(s.url + bad)).status, bad).toBe(404);
  });

  it('--schema of a bad schema exits 1 with the lint problems; a file that is not JSON exits 3 with file:line:col', () => {
    const dir = folder({
      'bad.json': JSON.stringify({ type: 'object', properties: { a: { type: 'string', maxLenght: 3 } } }),
      'broken.json': '{\n  "type": "object",\n}\n',
    });
    const bad = runBin(['serve', '--port', '0', '--schema', 'bad.json'], { cwd: dir });
    expect(bad.status).toBe(1);
    expect(bad.stderr).toBe(
      'smartcage serve: bad.json: The JSON schema has 1 error: Unknown keyword "maxLenght". Did you mean "maxLength"?\n' +
        '  /properties/a/maxLenght: Unknown keyword "maxLenght". Did you mean "maxLength"?\n',
    );
    const broken = runBin(['serve', '--port', '0', '--schema', 'broken.json'], { cwd: dir });
    expect(broken.status).toBe(3);
    expect(broken.stderr).toMatch(/^smartcage serve: broken\.json:3:1: not valid JSON: .+\n$/);
    expect(runBin(['serve', '--port', '0', '--schema', 'missing.json'], { cwd: dir }).stderr).toMatch(
      /^smartcage serve: cannot read missing\.json: there is no such file \(check the name; paths are relative to .+\) \(ENOENT\)\n$/,
    );
  });

  it('--help documents the --files mapping, --schema, the paste box and the exit status', () => {
    const r = runBin(['serve', '--help']);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('DIR/user/ is served as');
    expect(r.stdout).toContain('--schema FILE');
    expect(r.stdout).toContain('/paste');
    expect(r.stdout).toMatch(/3 a file cannot be read[^]*port is in use/);
  });
});
