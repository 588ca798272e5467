/**
 * A long-running `batch run` outlives its database's connections: when PostgreSQL ends them
 * (a restart or failover sends 57P01, "terminating connection due to administrator command"),
 * the runner reports the failed turn, waits and goes on, instead of exiting with runs still
 * queued. The site's connections carry an application_name of their own, so the test ends
 * only those, not the other test files' on the shared server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { BACKENDS, PG_URL } from '../support/backends.js';
import { siteWith, type TestSite } from '../support/site-with.js';
import { runBatches, type RunEvent } from '../../../src/site/batches/runner.js';
import { history } from '../../../src/site/batches/history.js';

(PG_URL ? describe : describe.skip)('batch run when PostgreSQL ends its connections', () => {
  const app = `batchloss-${randomBytes(4).toString('hex')}`;
  let site: TestSite;
  let admin: pg.Client;
  beforeAll(async () => {
    const url = new URL(PG_URL!);
    url.searchParams.set('application_name', app);
    site = await siteWith(BACKENDS[1]!, {
      files: { 'batches/note.tpl': 'noted {$ext_data.n}' },
      edit(config) {
        config.database = url.toString();
        (config.batches as { slug: string }[]).push({ slug: 'note' });
      },
    });
    admin = new pg.Client({ connectionString: PG_URL! });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.end();
    await site?.done();
  });

  const queue = (n: number) =>
    site.engines
      .at(0)
      .render(`{assign_array var=d keys="n" values="${n}"}{batch name="note" ext_data=$d var=id}{$id}`, {
        name: 'page.tpl',
        identity: site.identity({ memberId: null }),
      });
  const terminate = () =>
    admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1', [app]);

  it('keeps running and runs what is queued after the connections come back', async () => {
    await queue(1);
    const stop = new AbortController();
    const events: RunEvent[] = [];
    const runner = runBatches(site, { once: false, pollMs: 50, signal: stop.signal, onEvent: (e) => events.push(e) });
    const ended = (n: number) => events.filter((e) => e.kind === 'end').length >= n;
    const until = async (ok: () => boolean) => {
      for (let i = 0; i < 400 && !ok(); i++) await new Promise((r) => setTimeout(r, 50));
      expect(ok()).toBe(true);
    };
    await until(() => ended(1));
    // End every connection of the site a few times while the runner polls: some turns fail.
    for (let i = 0; i < 5; i++) {
      await terminate();
      await new Promise((r) => setTimeout(r, 60));
    }
    await queue(2);
    await until(() => ended(2));
    stop.abort();
    const summary = await runner;
    expect(summary.done).toBe(2);
    expect((await history(site)).map((r) => [r.runId, r.state, r.output])).toEqual([
      [2, 'done', 'noted 2'],
      [1, 'done', 'noted 1'],
    ]);
  }, 60_000);
});
