/**
 * {backup} and {backup_delete} on a local site, on both store backends: who may call them (a
 * batch, the admin test, a super user; not a member or a visitor), result_var, the interval
 * and count caps, deletion by id and by period, and their attribute errors at the line.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { eachBackend } from '../support/backends.js';
import { failureOf, siteWith, type TestSite } from '../support/site-with.js';
import { backupFile } from '../../../src/site/adapters/backups.js';
import type { RenderIdentity } from '../../../src/index.js';
import { BACKUP_INTERVAL_SECONDS, MAX_BACKUPS } from '../../../src/host-plugins/backup/common.js';

eachBackend('{backup} and {backup_delete}', (backend) => {
  let site: TestSite;
  beforeAll(async () => {
    site = await siteWith(backend);
  });
  afterAll(() => site.done());

  const render = (src: string, memberId: number | null, context: RenderIdentity['context'] = 'web') =>
    site.engines
      .at(0)
      .render(src, { name: 'ops.tpl', identity: site.identity({ memberId, context }) })
      .then((r) => r.output);
  const clear = async () => {
    for (const b of await site.host.backups!.list()) await site.host.backups!.delete(b.id);
  };

  it('backs up for a super user and gives the record in result_var; the archive is there', async () => {
    const out = await render(
      '{backup type="full" memo="nightly" result_var=b}{$b.backup_id}|{$b.type}|{$b.memo}|{$b.created}|{$b.size}',
      1,
    );
    const [id, type, memo, created, size] = out.split('|');
    expect([type, memo]).toEqual(['full', 'nightly']);
    expect(created).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(Number(size)).toBeGreaterThan(1024);
    expect(existsSync(backupFile(site, id!))).toBe(true);
    expect((await site.host.backups!.list()).map((b) => b.id)).toEqual([id]);
  });

  it('refuses a member who is no super user and a visitor, in a web render; lets a batch and the admin test', async () => {
    await clear();
    expect(await failureOf(render('\n{backup}', 2))).toBe('E_PERMISSION_DENIED@2');
    expect(await failureOf(render('{backup_delete backup_id="x"}', null))).toBe('E_PERMISSION_DENIED@1');
    expect(await render('{backup result_var=b}{$b.type}', null, 'batch')).toBe('full');
    await clear();
    expect(await render('{backup result_var=b}{$b.type}', null, 'admin-test')).toBe('full');
  });

  it('makes one backup per 10 minutes (E_RATE_LIMIT) and keeps at most 10 (E_QUOTA)', async () => {
    expect(await failureOf(render('{backup}', 1))).toBe('E_RATE_LIMIT@1');
    await clear();
    for (let i = 0; i < MAX_BACKUPS; i++) await site.host.backups!.create(`n${i}`);
    expect(await failureOf(render('{backup}', 1))).toBe('E_QUOTA@1');
  }, 60_000);

  it('claims a backup atomically with its bounds: two at once (two nodes) make one (D339, BR-22)', async () => {
    await clear();
    const bounds = { maxKept: MAX_BACKUPS, intervalSeconds: BACKUP_INTERVAL_SECONDS };
    const both = await Promise.allSettled([
      site.host.backups!.create('a', bounds),
      site.host.backups!.create('b', bounds),
    ]);
    expect(both.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(both.find((r) => r.status === 'rejected')).toMatchObject({ reason: { code: 'E_RATE_LIMIT' } });
    const kept = await site.host.backups!.list();
    expect(kept.length).toBe(1);
    expect(kept[0]!.size).toBeGreaterThan(1024);
    // The operator's own call (no bounds) is not held to them.
    await site.host.backups!.create('operator');
    await clear();
    for (let i = 0; i < MAX_BACKUPS; i++) await site.host.backups!.create(`n${i}`);
  }, 60_000);

  it('deletes by id (true, then false) and removes the archive', async () => {
    const [first] = await site.host.backups!.list();
    expect(await render(`{backup_delete backup_id="${first!.id}" result_var=ok}{if $ok}yes{else}no{/if}`, 1)).toBe(
      'yes',
    );
    expect(existsSync(backupFile(site, first!.id))).toBe(false);
    expect(await render(`{backup_delete backup_id="${first!.id}" result_var=ok}{if $ok}yes{else}no{/if}`, 1)).toBe(
      'no',
    );
  });

  it('deletes by period (a missing bound is open); the id wins over a period; an unreadable date is false', async () => {
    const kept = await site.host.backups!.list();
    expect(kept.length).toBe(MAX_BACKUPS - 1);
    const [a] = kept;
    expect(
      await render(
        `{backup_delete backup_id="${a!.id}" start_date="2000-01-01" end_date="2000-01-02" result_var=ok}{if $ok}yes{/if}`,
        1,
      ),
    ).toBe('yes');
    expect(
      await render(
        '{backup_delete start_date="2000-01-01" end_date="2000-12-31" result_var=ok}{if $ok}yes{else}no{/if}',
        1,
      ),
    ).toBe('no');
    expect(
      await render('{backup_delete start_date="not a date at all" result_var=ok}{if $ok}yes{else}no{/if}', 1),
    ).toBe('no');
    expect((await site.host.backups!.list()).length).toBe(MAX_BACKUPS - 2);
    expect(await render('{backup_delete end_date="+1 day" result_var=ok}{if $ok}yes{else}no{/if}', 1)).toBe('yes');
    expect(await site.host.backups!.list()).toEqual([]);
  });

  it('refuses a call without backup_id or a period, a type other than full, and a memo over 200 characters, at the line', async () => {
    expect(await failureOf(render('\n\n{backup_delete result_var=ok}', 1))).toBe('E_BAD_ATTRIBUTE@3');
    expect(await failureOf(render('{backup type="partial"}', 1))).toBe('E_BAD_ATTR@1');
    expect(await failureOf(render(`{backup memo="${'x'.repeat(201)}"}`, 1))).toBe('E_BAD_ATTRIBUTE@1');
  });
});
