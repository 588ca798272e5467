/** `smartcage batch run|list|history` as a user runs them: output, progress and exit codes. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCli } from '../support/cli.js';
import { initSite } from '../../src/site/init.js';

describe('smartcage batch', () => {
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'smartcage-batch-cli-'));
    await initSite(dir, { siteKey: 'batchcli' });
    const config = JSON.parse(readFileSync(path.join(dir, 'site.json'), 'utf8')) as { batches: unknown[] };
    config.batches.push({ slug: 'broken' });
    writeFileSync(path.join(dir, 'site.json'), JSON.stringify(config));
    writeFileSync(path.join(dir, 'batches/broken.tpl'), '{$x|no_such_modifier}');
    writeFileSync(
      path.join(dir, 'queue.tpl'),
      '{assign_array var=d keys="to" values="ops@example.com"}{batch name="notify" ext_data=$d var=id}{$id}',
    );
    writeFileSync(path.join(dir, 'queue-broken.tpl'), '{batch name="broken" var=id}{$id}');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('runs what a page queued with --once, shows it in the history, and exits 0', () => {
    expect(runCli(['render', path.join(dir, 'queue.tpl'), '--site', dir]).stdout).toBe('1');
    const r = runCli(['batch', 'run', '--site', dir, '--once']);
    expect(r.status).toBe(0);
    expect(r.stderr).toContain('batch: run 1 notify (batch) done');
    expect(r.stderr).toContain('batch: 1 done, 0 failed');
    const h = runCli(['batch', 'history', '--site', dir, '--run', '1']);
    expect(h.stdout).toMatch(/^1#1 {2}notify {2}done {2}from batch/);
    expect(h.stdout).toContain('info: {"to":"ops@example.com"}');
    expect(h.stdout).toContain('  | notified ops@example.com');
    const list = runCli(['batch', 'list', '--site', dir]);
    expect(list.stdout).toContain('notify');
    expect(list.stdout).toContain('queue: 0 queued, 0 running');
  }, 60_000);

  it('exits 1 when a run failed, naming the error', () => {
    runCli(['render', path.join(dir, 'queue-broken.tpl'), '--site', dir]);
    const r = runCli(['batch', 'run', '--site', dir, '--once']);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/batch: run 2 broken \(batch\) failed: batches\/broken\.tpl:1:\d+: E_/);
    expect(r.stderr).toContain('batch: 0 done, 1 failed');
  }, 60_000);

  it('exits 2 on wrong usage and 3 for a folder that is no site; --help shows the options', () => {
    expect(runCli(['batch', 'run', '--once']).status).toBe(2);
    expect(runCli(['batch', 'nope']).status).toBe(2);
    expect(runCli(['batch', 'run', '--site', path.join(dir, 'missing'), '--once']).status).toBe(3);
    const help = runCli(['batch', 'run', '--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('--once');
  }, 60_000);

  it('cancels a queued run (it never runs), refuses an ended one with 1 and an unknown one with 2', () => {
    const id = runCli(['render', path.join(dir, 'queue.tpl'), '--site', dir]).stdout;
    const c = runCli(['batch', 'cancel', dir, id]);
    expect([c.status, c.stdout]).toEqual([0, `run ${id} cancelled (it was queued and never starts)\n`]);
    expect(runCli(['batch', 'run', '--site', dir, '--once']).stderr).not.toContain(`run ${id} `);
    expect(runCli(['batch', 'history', '--site', dir, '--run', id]).stdout).toMatch(
      new RegExp(`^${id}#1 {2}notify {2}cancelled {2}from batch .* worker -\n`),
    );
    expect(runCli(['batch', 'cancel', '--site', dir, id])).toMatchObject({
      status: 1,
      stderr: `smartcage batch cancel: run ${id} has already ended\n`,
    });
    expect(runCli(['batch', 'cancel', dir, '999']).status).toBe(2);
    expect(runCli(['batch', 'cancel', dir]).stderr).toContain('batch cancel takes DIR RUN_ID');
    expect(runCli(['batch', 'cancel', dir, 'x1']).status).toBe(2);
  }, 60_000);
});

describe('smartcage batch run --sites', () => {
  let base: string;
  beforeAll(async () => {
    base = mkdtempSync(path.join(tmpdir(), 'smartcage-batch-sites-'));
    for (const key of ['alpha', 'beta']) {
      const dir = path.join(base, key);
      await initSite(dir, { siteKey: key });
      writeFileSync(
        path.join(dir, 'queue.tpl'),
        `{assign_array var=d keys="to" values="${key}@example.com"}{batch name="notify" ext_data=$d var=id}{batch name="notify" ext_data=$d var=again}{$id}`,
      );
    }
  });
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  it("runs every site's queue from one worker, each line naming its site, and each site keeps its own history", () => {
    for (const key of ['alpha', 'beta'])
      expect(runCli(['render', path.join(base, key, 'queue.tpl'), '--site', path.join(base, key)]).stdout).toBe('1');
    const r = runCli(['batch', 'run', '--sites', base, '--once']);
    expect(r.status).toBe(0);
    expect(r.stderr).toContain('batch: alpha: run 1 notify (batch) done');
    expect(r.stderr).toContain('batch: beta: run 1 notify (batch) done');
    expect(r.stderr).toContain('batch: 2 done, 0 failed');
  }, 120_000);

  // A test of its own: runCli blocks the test's thread, and vitest's worker must answer between them.
  it("keeps each site's history apart, and takes --site or --sites, not both", () => {
    for (const key of ['alpha', 'beta'])
      expect(runCli(['batch', 'history', '--site', path.join(base, key), '--run', '1']).stdout).toContain(
        `notified ${key}@example.com`,
      );
    expect(runCli(['batch', 'run', '--site', path.join(base, 'alpha'), '--sites', base]).status).toBe(2);
  }, 120_000);
});
