/** {get_file}: from cloud storage or an https URL (real EgressGuard, real servers on 127.0.0.2), to /files/temp or into var. */
import * as fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EgressGuard } from '../../../../src/host-adapters/egress/index.js';
import { MAX_GET_FILE_BYTES } from '../../../../src/host-plugins/files/get_file.js';
import { TemplateError } from '../../../../src/errors.js';
import { CERT, mapResolver, pattern, PUBLIC_IP, startTestNet, type TestNet } from '../../../support/egress-servers.js';
import { testEngine } from '../../../support/engine.js';
import { createFilesTestHost } from '../../../support/host/files.js';

let net: TestNet;
let guard: EgressGuard;
const fh = createFilesTestHost({ limits: { quotaBytes: 64 << 20, maxReadBytes: 32 << 20 } });
const engine = testEngine({ host: { ...fh.adapters, http: { fetch: (req) => guard.fetch(req) } } });
const render = async (tpl: string) => (await engine.render(tpl)).output;
const logs = async (tpl: string) => engine.render(tpl);
const fail = async (tpl: string): Promise<string> => {
  try {
    await engine.render(tpl);
  } catch (e) {
    if (e instanceof TemplateError) return e.code;
    throw e;
  }
  throw new Error('expected an error');
};
const real = (vpath: string) => `${fh.rootOf('default')}/${vpath.replace(/^\/files\//, '')}`;

beforeAll(async () => {
  net = await startTestNet();
  guard = new EgressGuard(
    { allowedPorts: [net.httpsPort], treatAsPublic: [PUBLIC_IP], timeoutMs: 10_000 },
    mapResolver({ 'public.test': [PUBLIC_IP] }),
    { ca: CERT },
  );
});
afterAll(async () => {
  await guard.close();
  await net.close();
});
const url = (p: string) => `https://public.test:${net.httpsPort}${p}`;

describe('get_file from cloud storage', () => {
  it('save=false puts the content in var; the default saves under /files/temp and gives the path', async () => {
    expect(await render('{get_file path="/files/g/example/report.txt" var=c save=false}[{$c}]')).toBe('[report\n]');
    const p = await render('{get_file path="/files/g/example/report.txt" var=p}{$p}');
    expect(p).toMatch(/^\/files\/temp\/[0-9a-f-]{36}$/);
    expect(fs.readFileSync(real(p), 'utf8')).toBe('report\n');
    expect(
      await render('{get_file path="/files/g/example/report.txt" var=p save_path="/files/temp/mine/r.txt"}{$p}'),
    ).toBe('/files/temp/mine/r.txt');
    expect(fs.readFileSync(real('/files/temp/mine/r.txt'), 'utf8')).toBe('report\n');
  });
  it('a missing file gives "" and a warning; a folder too', async () => {
    const r = await logs(
      '{get_file path="/files/g/example/none.txt" var=c save=false}{get_file path="/files/g/example" var=d}[{$c}][{$d}]',
    );
    expect(r.output).toBe('[][]');
    expect(r.logs.filter((l) => l.level === 'warning').length).toBe(2);
  });
  it('bad paths, save_path outside /files/temp, a named bucket: E_PATH_DENIED; one source exactly', async () => {
    for (const t of [
      '{get_file path="/files/user/example/notes.txt" var=c}',
      '{get_file path="/files/g/../user/x" var=c}',
      '{get_file path="/files/g/example/report.txt" var=c save_path="/files/g/copy.txt"}',
      '{get_file path="/files/g/example/report.txt" var=c save_path="/files/temp"}',
      '{get_file path="/files/g/example/report.txt" var=c bucket="other-site"}',
      '{get_file url="http://public.test/x" var=c}',
      '{get_file url="file:///etc/passwd" var=c}',
    ]) {
      expect(await fail(t), t).toBe('E_PATH_DENIED');
    }
    expect(await fail('{get_file var=c}')).toBe('E_BAD_COMBINATION');
    expect(await fail('{get_file path="/files/g/example/report.txt" url="https://public.test/" var=c}')).toBe(
      'E_BAD_COMBINATION',
    );
    expect(await fail('{get_file path="/files/g/example/report.txt" var=c save=false save_path="/files/temp/x"}')).toBe(
      'E_BAD_COMBINATION',
    );
    expect(await fail('{get_file path="/files/g/example/report.txt"}')).toBe('E_MISSING_ATTR');
  });
  it(`size cap: a file over ${MAX_GET_FILE_BYTES} bytes is E_SIZE_LIMIT, nothing saved`, async () => {
    fs.writeFileSync(real('/files/g/big.bin'), Buffer.alloc(MAX_GET_FILE_BYTES + 1));
    fs.writeFileSync(real('/files/g/max.bin'), Buffer.alloc(MAX_GET_FILE_BYTES));
    const before = fs.readdirSync(real('/files/temp')).length;
    expect(await fail('{get_file path="/files/g/big.bin" var=p}')).toBe('E_SIZE_LIMIT');
    expect(fs.readdirSync(real('/files/temp')).length).toBe(before);
    expect(await render('{get_file path="/files/g/max.bin" var=p}{$p|truncate:12:""}')).toBe('/files/temp/');
  });
});

describe('get_file from a URL', () => {
  it('downloads through the egress guard, into var or under /files/temp', async () => {
    expect(await render(`{get_file url="${url('/status/200')}" var=c save=false}{$c}`)).toBe('status 200');
    const p = await render(`{get_file url="${url('/bytes/5000')}" var=p}{$p}`);
    expect(fs.readFileSync(real(p)).equals(pattern(5000))).toBe(true);
  });
  it('a non-2xx answer gives "" and a warning', async () => {
    const r = await logs(`{get_file url="${url('/status/404')}" var=c save=false}[{$c}]`);
    expect(r.output).toBe('[]');
    expect(r.logs.some((l) => l.level === 'warning' && l.message.includes('404'))).toBe(true);
  });
  it('the egress policy refuses loopback and private addresses (E_SSRF_DENIED)', async () => {
    expect(await fail(`{get_file url="https://127.0.0.1:${net.httpsPort}/status/200" var=c}`)).toBe('E_SSRF_DENIED');
    expect(await fail('{get_file url="https://10.0.0.1/x" var=c}')).toBe('E_SSRF_DENIED');
  });
  it(`size cap: a download stops at ${MAX_GET_FILE_BYTES} bytes (declared or streamed), E_SIZE_LIMIT`, async () => {
    expect(await fail(`{get_file url="${url(`/bytes/${MAX_GET_FILE_BYTES + 1}`)}" var=c}`)).toBe('E_SIZE_LIMIT');
    expect(await fail(`{get_file url="${url(`/bytes/${MAX_GET_FILE_BYTES + 1}?chunked=1`)}" var=c save=false}`)).toBe(
      'E_SIZE_LIMIT',
    );
  });
});
