/**
 * {api} files=, dl_flg and method PURGE against the egress tests' real server on 127.0.0.2, with
 * the tenant's files in a real TenantFiles folder.
 */
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Response } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EgressGuard } from '../../../../src/host-adapters/egress/index.js';
import { TenantFiles } from '../../../../src/host-adapters/files/tenant-files.js';
import type { HostResolver } from '../../../../src/host-api/host.js';
import { MAX_UPLOAD_BYTES, MAX_UPLOAD_FILES } from '../../../../src/host-plugins/api/upload.js';
import type { Engine } from '../../../../src/index.js';
import { CERT, mapResolver, pattern, PUBLIC_IP, startTestNet, type TestNet } from '../../../support/egress-servers.js';
import { templateError, testEngine } from '../../../support/engine.js';

const root = mkdtempSync(path.join(tmpdir(), 'smartcage-api-files-'));
const temp = path.join(root, 'temp');
mkdirSync(temp, { recursive: true });
mkdirSync(path.join(root, 'user'), { recursive: true });
writeFileSync(path.join(temp, 'a.txt'), 'first file');
writeFileSync(path.join(temp, 'b.csv'), 'x,y\n1,2\n');
writeFileSync(path.join(root, 'user', 'secret.txt'), 'not for upload');
const files = new TenantFiles({ rootDir: root, quotaBytes: 64 << 20, maxReadBytes: 32 << 20, maxEntries: 1000 });

let net: TestNet;
let guard: EgressGuard;
beforeAll(async () => {
  net = await startTestNet();
  guard = new EgressGuard(
    {
      allowedPorts: [net.port, net.httpsPort],
      treatAsPublic: [PUBLIC_IP],
      timeoutMs: 10_000,
      maxResponseBytes: 1 << 20,
    },
    mapResolver({ 'public.test': [PUBLIC_IP] }),
    { ca: CERT },
  );
});
afterAll(async () => {
  await guard.close();
  await net.close();
  rmSync(root, { recursive: true, force: true });
});

// Tenant "default" has the storage; another tenant has none.
const host: HostResolver = ({ tenant }) => ({
  http: { fetch: (req) => guard.fetch(req) },
  ...(tenant === 'default' ? { files } : {}),
  secrets: {
    get: async (name) => (name === 'TOKEN' ? { value: 'dl-secret-value-4242', hosts: ['public.test'] } : null),
  },
});
const engine: Engine = testEngine({ host });
const u = (p: string, scheme = 'http'): string =>
  `${scheme}://public.test:${scheme === 'http' ? net.port : net.httpsPort}${p}`;
const render = async (t: string, vars: Record<string, unknown> = {}): Promise<string> =>
  (await engine.render(t, { vars: { u: u('/echo'), ...vars } })).output;

interface Echo {
  method: string;
  headers: Record<string, string>;
  body: string;
}
const echo = async (t: string, vars: Record<string, unknown> = {}): Promise<Echo> =>
  JSON.parse(await render(`${t}{$r}`, vars)) as Echo;
const tempFiles = (): string[] => readdirSync(temp).sort();

describe('{api} files=', () => {
  it('POST sends multipart/form-data: relative and /files/temp paths, field names from name or key', async () => {
    const e = await echo(
      '{assign var=o.path value="/files/temp/b.csv"}{assign var=o.name value="table"}{assign var=o.content_type value="text/csv"}' +
        '{assign var=f.doc value="a.txt"}{append var=f value=$o}{append var=f value="a.txt"}{api endpoint=$u method="POST" files=$f var=r}',
    );
    expect(e.method).toBe('POST');
    const form = await new Response(Buffer.from(e.body, 'base64'), {
      headers: { 'content-type': e.headers['content-type']! },
    }).formData();
    const doc = form.get('doc') as File;
    expect(doc.name).toBe('a.txt');
    expect(await doc.text()).toBe('first file');
    const table = form.get('table') as File;
    expect([table.name, table.type, await table.text()]).toEqual(['b.csv', 'text/csv', 'x,y\n1,2\n']);
    expect((form.get('file') as File).name).toBe('a.txt');
  });

  it('PUT sends the first file alone as the raw body; the rest are ignored', async () => {
    const e = await echo('{assign_array var=f values="b.csv,a.txt"}{api endpoint=$u method="PUT" files=$f var=r}');
    expect(e.method).toBe('PUT');
    expect(Buffer.from(e.body, 'base64').toString()).toBe('x,y\n1,2\n');
    expect(e.headers['content-type']).toBe('application/octet-stream');
  });

  it('reads only the temporary area: other roots, traversal and folders are refused before any request', async () => {
    const before = net.seen.length;
    const t = '{assign_array var=f values=$p}{api endpoint=$u method="POST" files=$f}';
    for (const p of [
      '/files/user/secret.txt',
      '../user/secret.txt',
      'x/../../user/secret.txt',
      '/files/temp/../user/secret.txt',
    ]) {
      expect((await templateError(engine.render(t, { vars: { u: u('/echo'), p } }))).code).toBe('E_PATH_DENIED');
    }
    mkdirSync(path.join(temp, 'folder'), { recursive: true });
    expect((await templateError(engine.render(t, { vars: { u: u('/echo'), p: 'folder' } }))).code).toBe(
      'E_BAD_ATTRIBUTE',
    );
    expect((await templateError(engine.render(t, { vars: { u: u('/echo'), p: 'missing.txt' } }))).code).toBe(
      'E_FILE_NOT_FOUND',
    );
    expect(net.seen.length).toBe(before);
  });

  it('caps the total size and the count before reading; refuses GET, a body beside files and a Content-Type of its own', async () => {
    writeFileSync(path.join(temp, 'big.bin'), Buffer.alloc(MAX_UPLOAD_BYTES - 5));
    const two = '{assign_array var=f values="big.bin,a.txt"}';
    expect(
      (
        await templateError(
          engine.render(`${two}{api endpoint=$u method="POST" files=$f}`, { vars: { u: u('/echo') } }),
        )
      ).code,
    ).toBe('E_SIZE_LIMIT');
    // PUT reads only the first: within the cap.
    expect(
      await render(`${two}{api endpoint=$o method="PUT" files=$f status_var=s}{$s}`, { o: u('/status/200') }),
    ).toBe('1');
    expect(net.seen.at(-1)!.body.length).toBe(MAX_UPLOAD_BYTES - 5);
    const many = Array.from({ length: MAX_UPLOAD_FILES + 1 }, () => 'a.txt').join(',');
    expect(
      (
        await templateError(
          engine.render('{assign_array var=f values=$m}{api endpoint=$u method="POST" files=$f}', {
            vars: { u: u('/echo'), m: many },
          }),
        )
      ).code,
    ).toBe('E_SIZE_LIMIT');
    const one = '{assign_array var=f values="a.txt"}';
    expect(
      (await templateError(engine.render(`${one}{api endpoint=$u method="GET" files=$f}`, { vars: { u: u('/echo') } })))
        .code,
    ).toBe('E_BAD_COMBINATION');
    expect(
      (
        await templateError(
          engine.render(`${one}{api endpoint=$u method="POST" body="x" files=$f}`, { vars: { u: u('/echo') } }),
        )
      ).code,
    ).toBe('E_BAD_COMBINATION');
    expect(
      (
        await templateError(
          engine.render(
            `${one}{append var=h value="Content-Type: text/plain"}{api endpoint=$u method="POST" headers=$h files=$f}`,
            { vars: { u: u('/echo') } },
          ),
        )
      ).code,
    ).toBe('E_BAD_COMBINATION');
    rmSync(path.join(temp, 'big.bin'));
  });
});

describe('{api} dl_flg', () => {
  it('saves a 2xx body under /files/temp with a generated name and gives its path in var', async () => {
    const out = await render('{api endpoint=$d dl_flg=true var=p status_var=s}{$s} {$p}', { d: u('/bytes/5000') });
    const m = /^1 (\/files\/temp\/[0-9a-f-]{36})$/.exec(out);
    expect(m).not.toBeNull();
    const saved = readFileSync(path.join(root, m![1]!.slice('/files/'.length)));
    expect(saved.equals(pattern(5000))).toBe(true);
    // The path is one the other plugins take: sent on with files=.
    const e = await echo('{assign_array var=f values=$p}{api endpoint=$u method="PUT" files=$f var=r}', { p: m![1] });
    expect(Buffer.from(e.body, 'base64').equals(pattern(5000))).toBe(true);
  });

  it('saves nothing for a non-2xx answer', async () => {
    const before = tempFiles();
    expect(
      await render('{api endpoint=$d dl_flg=true var=p http_code_var=c}{$c} [{$p}]', { d: u('/status/404') }),
    ).toBe('404 []');
    expect(tempFiles()).toEqual(before);
  });

  it('the body cap of the guard applies (E_HTTP_LIMIT) and nothing is written', async () => {
    const before = tempFiles();
    expect(
      (await templateError(engine.render('{api endpoint=$d dl_flg=true var=p}', { vars: { d: u('/bytes/2000000') } })))
        .code,
    ).toBe('E_HTTP_LIMIT');
    expect(tempFiles()).toEqual(before);
  });

  it('a body that echoes a secret of the render is not saved (E_SECRET_DENIED)', async () => {
    const before = tempFiles();
    const t =
      '{secret var=t key="TOKEN"}{append var=h value="X-Key: `$t`"}{api endpoint=$s headers=$h dl_flg=true var=p}';
    const e = await templateError(engine.render(t, { vars: { s: u('/echo', 'https') } }));
    expect(e.code).toBe('E_SECRET_DENIED');
    expect(tempFiles()).toEqual(before);
  });

  it('not with json_var', async () => {
    expect(
      (
        await templateError(
          engine.render('{api endpoint=$u dl_flg=true var=p json_var=j}', { vars: { u: u('/echo') } }),
        )
      ).code,
    ).toBe('E_BAD_COMBINATION');
  });
});

describe('{api} method PURGE', () => {
  it('reaches the server as PURGE', async () => {
    const e = await echo('{api endpoint=$u method="PURGE" var=r}');
    expect(e.method).toBe('PURGE');
  });
});
