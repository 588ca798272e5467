/**
 * `smartcage render --watch` as a user runs it (the built bin): it renders again when the
 * template, an include it read or the vars file changes, keeps watching through a template
 * error, ignores files it does not read, and stops on SIGTERM with status 0.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, expect, it } from 'vitest';
import { BIN, requireBuild } from '../support/bin.js';
import { filesPicture } from '../../src/site/watched-files.js';

beforeAll(() => requireBuild());

let dir = '';
let child: ChildProcessWithoutNullStreams | undefined;
afterEach(() => {
  child?.kill('SIGKILL');
  child = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function start(args: string[]): { out: () => string; err: () => string; done: Promise<number | null> } {
  let out = '';
  let err = '';
  const c = spawn(process.execPath, [BIN, ...args], { cwd: dir });
  child = c;
  c.stdout.on('data', (d: Buffer) => (out += d.toString()));
  c.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const done = new Promise<number | null>((r) => c.on('exit', (code) => r(code)));
  return { out: () => out, err: () => err, done };
}

async function until(ok: () => boolean, what: () => string, ms = 20_000): Promise<void> {
  const t0 = Date.now();
  while (!ok()) {
    if (Date.now() - t0 > ms) throw new Error(`timed out: ${what()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Apart from the last write by more than a coarse file system's time stamp step. */
const settle = () => new Promise((r) => setTimeout(r, 120));

it('renders again on a change of the template, its include and the vars; survives an error', async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'smartcage-watch-'));
  const w = (f: string, text: string) => writeFileSync(path.join(dir, f), text);
  w('t.tpl', '[{$x}|{include file="part.tpl"}]');
  w('part.tpl', 'part-1');
  w('v.json', '{"x": "one"}');
  w('unrelated.txt', 'a');
  const run = start(['render', 't.tpl', '--vars', 'v.json', '--watch']);
  const renders = () => run.err().split('watching for changes').length - 1;
  await until(
    () => renders() === 1,
    () => run.err(),
  );
  expect(run.out()).toBe('[one|part-1]');

  await settle();
  w('v.json', '{"x": "two"}');
  await until(
    () => run.out().endsWith('[two|part-1]'),
    () => run.out(),
  );
  await settle();
  w('part.tpl', 'part-2');
  await until(
    () => run.out().endsWith('[two|part-2]'),
    () => run.out(),
  );
  await settle();
  // A file the render does not read: no render.
  const before = renders();
  w('unrelated.txt', 'b');
  await new Promise((r) => setTimeout(r, 500));
  expect(renders()).toBe(before);

  w('t.tpl', '\n{if}');
  await until(
    () => run.err().includes('failed (exit 1)'),
    () => run.err(),
  );
  expect(run.err()).toMatch(/t\.tpl:2:\d+: error E_/);
  await settle();
  w('t.tpl', 'fixed {$x}');
  await until(
    () => run.out().endsWith('fixed two'),
    () => run.out(),
  );

  child!.kill('SIGTERM');
  expect(await run.done).toBe(0);
});

it('--watch needs a file', async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'smartcage-watch-'));
  const run = start(['render', '-', '--watch']);
  child!.stdin.end('x');
  expect(await run.done).toBe(2);
  expect(run.err()).toContain('--watch needs a template file');
});

it("the files' picture: time and size of each file of a folder, and missing ones", () => {
  dir = mkdtempSync(path.join(tmpdir(), 'smartcage-watch-'));
  writeFileSync(path.join(dir, 'a.tpl'), 'a');
  const one = filesPicture([dir, path.join(dir, 'none.tpl')]);
  expect(one).toContain(`${dir}/a.tpl=`);
  expect(one).toContain(`${path.join(dir, 'none.tpl')}=missing`);
  expect(filesPicture([dir, path.join(dir, 'none.tpl')])).toBe(one);
  writeFileSync(path.join(dir, 'a.tpl'), 'ab');
  expect(filesPicture([dir])).not.toBe(one.split('\n')[0]);
});

it('with --site: a change of templates/ renders again; the render writing the site data does not', async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'smartcage-watch-'));
  const init = start(['site', 'init', 'demo']);
  expect(await init.done).toBe(0);
  const w = (f: string, text: string) => writeFileSync(path.join(dir, f), text);
  w('demo/templates/part.tpl', 'part-1');
  // {login} writes a session into data/site.sqlite at every render.
  w('page.tpl', '{login member_id=2}[{include file="part.tpl"}]');
  const run = start(['render', 'page.tpl', '--site', 'demo', '--watch']);
  const renders = () => run.err().split('watching for changes').length - 1;
  await until(
    () => renders() === 1,
    () => run.err(),
  );
  expect(run.out()).toBe('[part-1]');
  await new Promise((r) => setTimeout(r, 800));
  expect(renders()).toBe(1);
  w('demo/templates/part.tpl', 'part-2');
  await until(
    () => run.out().endsWith('[part-2]'),
    () => run.out() + run.err(),
  );
  child!.kill('SIGTERM');
  expect(await run.done).toBe(0);
});
