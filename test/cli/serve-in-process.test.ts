/**
 * `smartcage serve --processes 2` renders in its children's own process (no sandbox worker:
 * docs/decisions.md D200), and a render that breaks a limit there costs that render only: an
 * endless loop, a regex stuck in native code, a heap bomb. Each answers 500 with its code, the
 * same children keep answering, and none of them died (the primary started no other).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initSite } from '../../src/site/init.js';
import { requireBuild } from '../support/bin.js';
import { descendants, eventually, startServe, stopServe, type ServeProcess } from '../support/serve-process.js';

beforeAll(requireBuild);

const FUNCTIONS: Record<string, string> = {
  loop: '{section name=i loop=2000000000}{/section}{return value="never"}',
  regex: '{assign var=s value="aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!"}{$s|regex_replace:"/(a+)+$/":"x"}',
  bomb: '{section name=i loop=100000000}{append var=a value=$smarty.section.i.index|str_pad:8000000:"x"}{/section}',
};

let dir: string;
let s: ServeProcess;
const cmdline = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return '';
  }
};

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'smartcage-inproc-'));
  await initSite(dir, { siteKey: `i${Math.random().toString(36).slice(2, 10)}`, database: null });
  const config = JSON.parse(readFileSync(path.join(dir, 'site.json'), 'utf8')) as { endpoints: unknown[] };
  for (const [name, source] of Object.entries(FUNCTIONS)) {
    config.endpoints.push({ path: name, method: 'GET', function: name, api_id: 1 });
    writeFileSync(path.join(dir, 'functions', `${name}.tpl`), source);
  }
  writeFileSync(path.join(dir, 'site.json'), JSON.stringify(config, null, 2));
  s = await startServe(['--port', '0', '--site', dir, '--processes', '2'], { waitMs: 60_000 });
}, 90_000);

afterAll(async () => {
  if (s) await stopServe(s);
  rmSync(dir, { recursive: true, force: true });
});

describe('serve --processes 2 renders in-process', () => {
  it('a render past its CPU or memory limit is a 500 with its code; the children live on, with no sandbox worker', async () => {
    expect(await eventually(() => s.out().includes('smartcage serve: 2 processes listening'), 60_000)).toBe(true);
    const me = async () => (await fetch(`${s.url}/rcms-api/1/me`, { signal: AbortSignal.timeout(20_000) })).status;
    // Both children have rendered (round-robin hands them the connections in turn).
    for (let i = 0; i < 4; i++) expect(await me()).toBe(200);
    const [primary] = descendants(s.child.pid!);
    const servers = descendants(primary!);
    expect(servers.map(cmdline).every((c) => c.includes('smartcage.js') && !c.includes('worker-main'))).toBe(true);
    expect(servers).toHaveLength(2);

    const codes: Record<string, string> = {};
    for (const name of Object.keys(FUNCTIONS)) {
      const r = await fetch(`${s.url}/rcms-api/1/${name}`, { signal: AbortSignal.timeout(30_000) });
      expect(r.status, name).toBe(500);
      codes[name] = ((await r.json()) as { errors: { code: string }[] }).errors[0]!.code;
      // The next requests are answered by the same children.
      for (let i = 0; i < 2; i++) expect(await me()).toBe(200);
    }
    // On a loaded machine the wall clock (5 s) may end an endless render before its CPU second does.
    expect(codes.loop).toMatch(/^E_(CPU|WALL)_TIMEOUT$/);
    expect(codes.regex).toMatch(/^E_(CPU|WALL)_TIMEOUT$/);
    expect(codes.bomb).toBe('E_MEMORY_LIMIT');
    expect(descendants(primary!).sort()).toEqual([...servers].sort());
    expect(s.out()).not.toMatch(/starting another/);
  }, 120_000);
});
