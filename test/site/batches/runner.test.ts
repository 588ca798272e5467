/**
 * Batches on a local site end to end, on every queue backend: {batch} in a page queues a run
 * with ext_data, the runner renders the batch template in the batch context, and the history
 * keeps what it printed, logged and failed with. Also the {batch} rules (one of batch_id and
 * name, a batch the site has, the data cap, one run per batch and data in a render, the depth
 * cap) and the module batch topics/sync_counter.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { eachSiteQueue, batchSite } from './support/sites.js';
import { failureOf, type TestSite } from '../support/site-with.js';
import { runBatches, type RunEvent } from '../../../src/site/batches/runner.js';
import { history } from '../../../src/site/batches/history.js';
import { siteQueue } from '../../../src/site/batches/site-queue.js';
import { MAX_BATCH_DEPTH } from '../../../src/site/batches/queue.js';

const page = (site: TestSite, src: string, memberId: number | null = null) =>
  site.engines
    .at(0)
    .render(src, { name: 'page.tpl', identity: site.identity({ memberId }) })
    .then((r) => r.output);

eachSiteQueue('batches on a site', (v) => {
  let site: TestSite;
  beforeAll(async () => {
    site = await batchSite(v, {
      writer:
        '{write_file path="/files/user/batch-out.txt" var=p value="`$ext_data.name`:`$ext_data.n`"}{batch name="second" ext_data=$ext_data}wrote {$p}',
      second: '{foreach from=$ext_data key=k item=x}{$k}={$x};{/foreach}',
      context:
        '{cookie var=c}{cookie key="k" value="v"}[{$smarty.get.x}][{$smarty.session.member_id}][{$c|@count}][{$smarty.cookies|@count}]',
      broken: 'before {$x|no_such_modifier}',
      self: '{batch name="self" ext_data=$ext_data}',
    });
  });
  afterAll(() => site.done());

  it('runs a chain: a page queues a batch with ext_data, the batch writes a file and queues the next; the history shows both', async () => {
    expect(
      await page(
        site,
        '{assign_array var=d keys="name,n,7" values="report,3,seven"}{batch name="writer" ext_data=$d var=id}{$id}',
      ),
    ).toBe('1');
    const events: RunEvent[] = [];
    const summary = await runBatches(site, { once: true, onEvent: (e) => events.push(e) });
    expect(summary).toEqual({ done: 2, failed: 0, cancelled: 0 });
    expect(events.filter((e) => e.kind === 'end').map((e) => [e.run!.id, e.slug, e.state, e.kept])).toEqual([
      [1, 'writer', 'done', true],
      [2, 'second', 'done', true],
    ]);
    expect(readFileSync(path.join(site.dir, 'files/user/batch-out.txt'), 'utf8')).toBe('report:3');
    const runs = await history(site);
    expect(runs.map((r) => [r.runId, r.attempt, r.slug, r.origin, r.state])).toEqual([
      [2, 1, 'second', 'batch', 'done'],
      [1, 1, 'writer', 'batch', 'done'],
    ]);
    expect(runs[1]!.output).toBe('wrote /files/user/batch-out.txt');
    // ext_data crossed two queues with its keys in order and its int key an int.
    expect(runs[0]!.output).toBe('name=report;n=3;7=seven;');
    expect(await (await siteQueue(site)).counts()).toEqual({ queued: 0, running: 0 });
  });

  it('renders a batch with no request, no member and no cookies: {cookie} reads nothing and sets nothing', async () => {
    await page(site, '{batch name="context"}');
    expect(await runBatches(site, { once: true })).toEqual({ done: 1, failed: 0, cancelled: 0 });
    const [run] = await history(site, { limit: 1 });
    expect(run!.output).toBe('[][][0][0]');
    expect(run!.logs).toContainEqual({ level: 'warning', message: '{cookie} is ignored in a batch (no browser)' });
  });

  it('records a failed run with its error and line, and goes on to the next', async () => {
    await page(site, '{batch name="broken"}{batch name="second"}');
    expect(await runBatches(site, { once: true })).toEqual({ done: 1, failed: 1, cancelled: 0 });
    const [second, broken] = await history(site, { limit: 2 });
    expect([broken!.slug, broken!.state, second!.slug, second!.state]).toEqual(['broken', 'failed', 'second', 'done']);
    expect(broken!.errors[0]).toMatch(/^batches\/broken\.tpl:1:\d+: E_\w+: .*no_such_modifier/);
  });

  it('queues one run for one batch and data in a render, another for other data or another render', async () => {
    const ids = await page(
      site,
      '{batch name="second" var=a}{batch name="second" var=b}{batch name="second" ext_data=$smarty.now|@explode:"x" var=c}{$a},{$b},{$c}',
    );
    const [a, b, c] = ids.split(',').map(Number);
    expect(a).toBe(b);
    expect(c).toBe(a! + 1);
    expect(Number(await page(site, '{batch name="second" var=a}{$a}'))).toBe(c! + 1);
    await runBatches(site, { once: true });
  });

  it(`stops a batch that queues itself ${MAX_BATCH_DEPTH} levels down (E_QUOTA), with the queue empty`, async () => {
    await page(site, '{batch name="self"}');
    expect(await runBatches(site, { once: true })).toEqual({ done: MAX_BATCH_DEPTH, failed: 1, cancelled: 0 });
    const [last] = await history(site, { limit: 1 });
    expect(last!.errors[0]).toMatch(/E_QUOTA: .*5 levels deep/);
    expect(await (await siteQueue(site)).counts()).toEqual({ queued: 0, running: 0 });
  });

  it('refuses a {batch} without batch_id or name, with both, a batch the site lacks, non-array data, and data over 64 KiB', async () => {
    expect(await failureOf(page(site, '\n{batch}'))).toBe('E_BAD_ATTRIBUTE@2');
    expect(await failureOf(page(site, '{batch batch_id=1 name="notify"}'))).toBe('E_BAD_COMBINATION@1');
    expect(await failureOf(page(site, '{batch batch_id=1 module="topics"}'))).toBe('E_BAD_COMBINATION@1');
    expect(await failureOf(page(site, '{batch name="nope"}'))).toBe('E_NOT_FOUND@1');
    expect(await failureOf(page(site, '{batch batch_id=99}'))).toBe('E_NOT_FOUND@1');
    expect(await failureOf(page(site, '{batch module="topics" name="nope"}'))).toBe('E_NOT_FOUND@1');
    expect(await failureOf(page(site, '{batch name="second" ext_data="text"}'))).toBe('E_BAD_ATTRIBUTE@1');
    expect(
      await failureOf(
        page(
          site,
          `{section name=i loop=700}{assign var=big value="\`$big\`${'x'.repeat(100)}"}{/section}{assign_array var=d values=$big}{batch name="second" ext_data=$d}`,
        ),
      ),
    ).toBe('E_SIZE_LIMIT@1');
    expect(await (await siteQueue(site)).counts()).toEqual({ queued: 0, running: 0 });
  });

  it("queues one run per idempotency key across requests: a retried request answers the first run's id", async () => {
    const start =
      '{assign_array var=d keys="n" values="1"}{batch name="second" ext_data=$d idempotency_key="order-77" var=id}{$id}';
    const first = await page(site, start);
    // Another request (its own request id), even with other data: the key names the run.
    expect(await page(site, start.replace('values="1"', 'values="2"'))).toBe(first);
    expect(await (await siteQueue(site)).counts()).toEqual({ queued: 1, running: 0 });
    expect(await runBatches(site, { once: true })).toEqual({ done: 1, failed: 0, cancelled: 0 });
    expect(await page(site, start)).toBe(first);
    expect(await runBatches(site, { once: true })).toEqual({ done: 0, failed: 0, cancelled: 0 });
    expect(Number(await page(site, start.replace('order-77', 'order-78')))).toBeGreaterThan(Number(first));
    await runBatches(site, { once: true });
    expect(await failureOf(page(site, '{batch name="second" idempotency_key=""}'))).toBe('E_BAD_ATTRIBUTE@1');
  });

  it('starts a batch by its registered id (site.json batches[].id)', async () => {
    expect(Number(await page(site, '{batch batch_id=1 var=id}{$id}'))).toBeGreaterThan(0);
    expect(await runBatches(site, { once: true })).toEqual({ done: 1, failed: 0, cancelled: 0 });
    const [run] = await history(site, { limit: 1 });
    expect([run!.slug, run!.output.trim()]).toEqual(['notify', 'notified nobody']);
  });

  it('runs the module batch topics/sync_counter: the counters of ext_data.topics_ids are published', async () => {
    const read = '{assign_topics_detail var=t topics_id=7}{$t.view_count}';
    const before = await page(site, read);
    await page(
      site,
      '{update_counter value=4242 topics_group_id=1 slug=7 ext_slug="view_count"}{assign_array var=ids values="7"}{assign_array var=d keys="topics_ids" values=""}{append var=d index="topics_ids" value=$ids}{batch module="topics" name="sync_counter" ext_data=$d}',
    );
    expect(await page(site, read)).toBe(before);
    expect(await runBatches(site, { once: true })).toEqual({ done: 1, failed: 0, cancelled: 0 });
    expect(await page(site, read)).toBe('4242');
    expect((await history(site, { limit: 1 }))[0]!.slug).toBe('topics/sync_counter');
  });
});

describe('a site without the batch', () => {
  it('is E_HOST_CAPABILITY on a host without HostAdapters.batches', async () => {
    const { createEngine } = await import('../../../src/index.js');
    const engine = createEngine({ workers: 0 });
    try {
      await expect(engine.render('{batch name="x"}')).rejects.toMatchObject({ code: 'E_HOST_CAPABILITY' });
    } finally {
      await engine.close();
    }
  });
});
