/**
 * `smartcage batch run` killed with SIGKILL in the middle of a run, on every queue backend: the
 * run is run again by the next runner once the lease has expired, the history shows the lost
 * attempt and the one that finished, and the run queued behind it is not lost.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { eachSiteQueue, batchSite } from './support/sites.js';
import type { TestSite } from '../support/site-with.js';
import { runBatches } from '../../../src/site/batches/runner.js';
import { history } from '../../../src/site/batches/history.js';
import { siteQueue } from '../../../src/site/batches/site-queue.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

async function until(what: string, ok: () => Promise<boolean>, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

eachSiteQueue('a batch runner killed mid-run', (v) => {
  let site: TestSite;
  beforeAll(async () => {
    site = await batchSite(v, { slow: '{sleep ms=1000}{sleep ms=1000}{sleep ms=1000}slept for {$ext_data.who}' });
    // The lease is the queue's (BullMQ's stalled check runs every half lease): short, made first.
    await siteQueue(site, { leaseMs: 1000 });
  });
  afterAll(() => site.done());

  it('loses the attempt, not the run: the next runner finishes it and the run behind it', async () => {
    const page = (src: string) => site.engines.at(0).render(src, { identity: site.identity() });
    await page('{assign_array var=d keys="who" values="first"}{batch name="slow" ext_data=$d}');
    await page('{batch name="notify"}');
    // Its own process group, so the kill takes the runner's sandbox workers too.
    const args = ['batch', 'run', '--site', site.dir, '--once', '--lease', '1'];
    const child = spawn(
      process.execPath,
      [
        '--no-node-snapshot',
        '--import',
        'tsx',
        '-e',
        `import(${JSON.stringify(ROOT + 'src/cli/main.ts')}).then(async (m) => { process.exitCode = await m.main(${JSON.stringify(args)}); })`,
      ],
      { cwd: ROOT, detached: true, stdio: 'ignore' },
    );
    const exited = new Promise<number | null>((res) => child.once('exit', (code) => res(code)));
    await until(
      'the runner to start run 1',
      async () => (await history(site, { runId: 1 })).some((r) => r.state === 'running'),
      30_000,
    );
    process.kill(-child.pid!, 'SIGKILL');
    expect(await exited).toBeNull();

    await new Promise((r) => setTimeout(r, 1500));
    await until(
      'run 1 to be run again',
      async () => {
        await runBatches(site, { once: true, leaseMs: 1000 });
        return (await history(site, { runId: 1 })).some((r) => r.state === 'done');
      },
      15_000,
    );
    const runs = await history(site);
    expect(
      runs
        .filter((r) => r.runId === 1)
        .map((r) => [r.attempt, r.state])
        .sort(),
    ).toEqual([
      [1, 'lost'],
      [2, 'done'],
    ]);
    expect(runs.find((r) => r.runId === 1 && r.attempt === 2)!.output).toBe('slept for first');
    expect(runs.filter((r) => r.runId === 2).map((r) => r.state)).toEqual(['done']);
    expect(await (await siteQueue(site)).counts()).toEqual({ queued: 0, running: 0 });
  }, 90_000);
});
